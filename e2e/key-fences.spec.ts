import { test, expect, expectAccessible, v1 } from './fixtures';

test('an owner fences a key from the key list: last use with its IP, an allowlist that refuses at once, a rate and a cap (keyboard, axe)', async ({ page, demo }) => {
  const name = `Fenced ${Date.now()}`;
  const created = await page.request.post('/api/trpc/keys.create', {
    headers: { 'content-type': 'application/json', origin: demo.baseUrl },
    data: { organizationId: demo.organizationId, mode: 'test', name, permissions: ['renders', 'generations_read'] },
  });
  expect(created.status()).toBe(200);
  const key = ((await created.json()) as { result: { data: { id: string; secret: string } } }).result.data;
  expect((await v1(demo.baseUrl, key.secret, '/v1/generations')).status).toBe(200);

  await page.goto(`/o/${demo.organizationId}/test/keys`);
  const row = page.getByRole('row').filter({ hasText: name });
  // The e2e server trusts no proxy: the last use is from the loopback socket.
  await expect(row).toContainText(/from (::ffff:)?127\.0\.0\.1|from ::1/);
  await expect(row).toContainText('No fences');

  const actions = row.getByRole('button', { name: `Actions for ${name}` });
  await actions.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Fences' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expectAccessible(page, 'the key fences dialog');
  await dialog.getByLabel('IP allowlist').fill('192.0.2.0/24\n2001:DB8::/32');
  await dialog.getByLabel('Requests per minute').fill('30');
  await dialog.getByLabel('Monthly spend cap (EUR)').fill('12.50');
  await dialog.getByRole('button', { name: 'Save fences' }).click();
  await expect(page.getByText(`Fences of “${name}” saved.`)).toBeVisible();
  await expect(row).toContainText('192.0.2.0/24, 2001:db8::/32');
  await expect(row).toContainText('30 req/min');
  await expect(row).toContainText('€12.50/month');

  const refused = await v1(demo.baseUrl, key.secret, '/v1/generations');
  expect(refused.status).toBe(403);
  expect(refused.body).toMatchObject({ error: { code: 'api_key_ip_not_allowed' } });
  expect(JSON.stringify(refused.body)).toContain(key.id);

  // A bad entry is refused with the reason; nothing changes.
  await actions.click();
  await page.getByRole('menuitem', { name: 'Fences' }).click();
  await dialog.getByLabel('IP allowlist').fill('192.0.2.0/24\nnot-an-address');
  await dialog.getByRole('button', { name: 'Save fences' }).click();
  await expect(dialog).toContainText('is not an IPv4 or IPv6 address or CIDR');
  // Loopback allowed, limits cleared: the key answers again.
  await dialog.getByLabel('IP allowlist').fill('127.0.0.1\n::1');
  await dialog.getByLabel('Requests per minute').fill('');
  await dialog.getByLabel('Monthly spend cap (EUR)').fill('');
  await dialog.getByRole('button', { name: 'Save fences' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('127.0.0.1/32, ::1/128');
  expect((await v1(demo.baseUrl, key.secret, '/v1/generations')).status).toBe(200);
});
