import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { test, expect, expectAccessible, signInWithPassword, SIGNED_OUT, v1 } from './fixtures';

const root = path.resolve(import.meta.dirname, '..');
const PASSWORD = 'correct horse battery staple';

/** A developer of the demo organization, made with the admin CLI (attached to the e2e server's database). */
function createDeveloper(dataDir: string, organizationId: string, email: string): void {
  const result = spawnSync(process.execPath, [path.join(root, 'bin/roomtone.mjs'), 'user', 'create', '--email', email, '--password', PASSWORD, '--org', organizationId, '--role', 'developer', '--json'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(result.status, result.stderr).toBe(0);
}

test('removing a member: the dialog lists the keys they created, and the removal revokes them (390 px, keyboard, axe)', async ({ page, browser, demo }) => {
  const email = `leaver-${Date.now()}@example.com`;
  createDeveloper(demo.dataDir, demo.organizationId, email);

  // The developer signs in and creates a key, as the keys screen does (same procedure).
  const devContext = await browser.newContext({ baseURL: demo.baseUrl, storageState: SIGNED_OUT });
  const dev = await devContext.newPage();
  await signInWithPassword(dev, email, PASSWORD);
  const created = await dev.request.post('/api/trpc/keys.create', {
    headers: { 'content-type': 'application/json', origin: demo.baseUrl },
    data: { organizationId: demo.organizationId, mode: 'test', name: 'Leaver CI', permissions: ['renders', 'generations_read'] },
  });
  expect(created.status()).toBe(200);
  const key = ((await created.json()) as { result: { data: { secret: string; prefix: string } } }).result.data;
  expect((await v1(demo.baseUrl, key.secret, '/v1/generations')).status).toBe(200);

  // The owner, on a phone-sized screen, opens the removal and reads what it revokes.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/o/${demo.organizationId}/test/members`);
  const remove = page.getByRole('button', { name: `Remove ${email}` });
  await remove.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('The API key they created is revoked too, in both modes');
  await expect(dialog).toContainText(`Leaver CI (test, ${key.prefix}…)`);
  const box = await dialog.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  await expectAccessible(page, 'the member removal dialog');

  await dialog.getByRole('button', { name: 'Remove member' }).click();
  await expect(page.getByText('Member removed; 1 API key revoked.')).toBeVisible();
  const after = await v1(demo.baseUrl, key.secret, '/v1/generations');
  expect(after.status).toBe(401);
  expect(after.body).toMatchObject({ error: { code: 'api_key_invalid' } });

  // After the removal, the developer's session creates nothing there.
  const again = await dev.request.post('/api/trpc/keys.create', {
    headers: { 'content-type': 'application/json', origin: demo.baseUrl },
    data: { organizationId: demo.organizationId, mode: 'test', name: 'After', permissions: ['renders'] },
  });
  expect(again.status()).toBe(404);

  // No dead end: the organization's pages say what happened; / goes to a page that offers an
  // organization of their own (open sign-up here) and sign-out.
  await dev.goto(`/o/${demo.organizationId}/test/keys`);
  await expect(dev.getByRole('heading', { name: 'You are not a member of this organization', level: 1 })).toBeVisible();
  await expect(dev.getByRole('button', { name: 'Create key' })).toHaveCount(0);
  await dev.goto('/');
  await dev.waitForURL('**/no-organization');
  await expect(dev.getByRole('heading', { name: 'You are not a member of any organization', level: 1 })).toBeVisible();
  await expectAccessible(dev, 'the page of a user without an organization (390 px)');
  await dev.getByRole('textbox', { name: 'Organization name' }).fill('Leaver Studio');
  await dev.getByRole('button', { name: 'Create and open it' }).click();
  await dev.waitForURL(/\/o\/org_[^/]+\/test\/overview/);
  await expect(dev.getByRole('button', { name: /Organization: Leaver Studio/ }).first()).toBeAttached();
  // Back at the old organization: their own is offered, and sign-out.
  await dev.goto(`/o/${demo.organizationId}/test/keys`);
  await expect(dev.getByRole('link', { name: 'Go to Leaver Studio' })).toBeVisible();
  await dev.getByRole('button', { name: 'Sign out' }).click();
  await dev.waitForURL('**/sign-in');
  await devContext.close();
});
