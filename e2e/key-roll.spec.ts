/**
 * The keys screen's details (issue 34 §5), in Chromium as the demo owner, at 1360×850 and
 * 390×844, axe in both themes: one Actions menu per key; rolling a key shows the new secret
 * once, Esc and a click outside ask before closing it, the old secret works during the overlap
 * and the row says until when; the expiry changed after creation; a revoked key dimmed with
 * when it was revoked; keys as cards on a phone. Writes docs/screens/keys-1360.png and keys-390.png with E2E_DOC_SCREENS=1.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, expectFitsWidth, expectInsideWindow, test, v1 } from './fixtures';
import type { E2EState } from './global-setup';
import { docScreen } from './doc-screens';

async function bothThemes(page: Page, context: string): Promise<void> {
  for (const theme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveClass(new RegExp(theme));
    await expectAccessible(page, `${context} (${theme})`, theme === 'dark' ? 'all' : 'colours');
  }
}

async function trpc<T>(page: Page, demo: E2EState, procedure: string, input: Record<string, unknown>): Promise<T> {
  const res = await page.request.post(`/api/trpc/${procedure}`, {
    headers: { 'content-type': 'application/json', origin: demo.baseUrl },
    data: { organizationId: demo.organizationId, mode: 'test', ...input },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { result: { data: T } }).result.data;
}

async function createKey(page: Page, demo: E2EState, name: string): Promise<{ id: string; secret: string; prefix: string }> {
  return trpc(page, demo, 'keys.create', { name, permissions: ['renders', 'generations_read'] });
}

async function openAction(page: Page, name: string, item: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

test('roll a key: the new secret shown once, Esc and a click outside ask first, the old secret works until the overlap ends', async ({ page, demo }) => {
  await page.setViewportSize({ width: 1360, height: 850 });
  const name = `Rolled e2e ${Date.now()}`;
  const key = await createKey(page, demo, name);
  await page.goto(`/o/${demo.organizationId}/test/keys`);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  // One control for the key's actions, in the row; the table fits its card.
  await expect(row.getByRole('button')).toHaveCount(1);
  expect(await page.getByRole('table', { name: 'API keys' }).locator('xpath=..').evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);

  await openAction(page, name, 'Roll key');
  const dialog = page.getByRole('dialog', { name: `Roll “${name}”` });
  await expect(dialog).toContainText(key.prefix);
  await dialog.getByRole('combobox', { name: 'Old secret stops working' }).click();
  await page.getByRole('option', { name: 'In 1 hour' }).click();
  await bothThemes(page, 'the roll dialog');
  await dialog.getByRole('button', { name: 'Roll key' }).click();

  const shown = page.getByRole('dialog', { name: `New secret for “${name}”` });
  const secret = await shown.getByTestId('rolled-key-secret').inputValue();
  expect(secret).toMatch(/^rt_test_[0-9A-Za-z]{40}$/);
  expect(secret).not.toBe(key.secret);
  await expect(shown.getByRole('alert')).toContainText('only time the new secret is shown');
  await expect(shown).toContainText(`The old secret (${key.prefix}…) works until`);

  // Esc asks; Cancel keeps the secret on screen.
  await page.keyboard.press('Escape');
  const ask = page.getByRole('alertdialog', { name: 'Close without the secret?' });
  await expect(ask).toContainText('You won’t see this secret again');
  await bothThemes(page, 'the close-without-the-secret question');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await expect(shown.getByTestId('rolled-key-secret')).toHaveValue(secret);
  // A click outside asks too; "Close anyway" closes.
  await page.mouse.click(5, 5);
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Close anyway' }).click();
  await expect(shown).toBeHidden();

  // The row: the new prefix, and the old secret until its overlap ends (exact UTC on hover).
  await expect(row.locator('code').first()).toHaveText(secret.slice(0, 12));
  const previous = row.getByTestId('key-previous-secret');
  await expect(previous).toContainText(key.prefix);
  await expect(previous).toContainText(/in (59|60) minutes|in 1 hour/);
  await expect(previous.locator('time')).toHaveAttribute('title', /UTC$/);
  expect((await v1(demo.baseUrl, secret, '/v1/generations?limit=1')).status).toBe(200);
  expect((await v1(demo.baseUrl, key.secret, '/v1/generations?limit=1')).status).toBe(200);

  // Rolled again with no overlap: the earlier secret is announced as stopping at once, and does.
  await openAction(page, name, 'Roll key');
  const again = page.getByRole('dialog', { name: `Roll “${name}”` });
  await expect(again).toContainText(`(${key.prefix}…) stops working at once`);
  await again.getByRole('combobox', { name: 'Old secret stops working' }).click();
  await page.getByRole('option', { name: 'Now' }).click();
  await again.getByRole('button', { name: 'Roll key' }).click();
  const third = await page.getByTestId('rolled-key-secret').inputValue();
  await expect(page.getByRole('dialog', { name: `New secret for “${name}”` })).toContainText('has stopped working');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect((await v1(demo.baseUrl, third, '/v1/generations?limit=1')).status).toBe(200);
  for (const old of [key.secret, secret]) {
    const refused = await v1(demo.baseUrl, old, '/v1/generations?limit=1');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: { code: 'api_key_invalid' } });
  }
  await expect(row.getByTestId('key-previous-secret')).toHaveCount(0);
});

test('a key’s expiry set, changed and removed after creation', async ({ page, demo }) => {
  await page.setViewportSize({ width: 1360, height: 850 });
  const name = `Expiring later e2e ${Date.now()}`;
  const key = await createKey(page, demo, name);
  await page.goto(`/o/${demo.organizationId}/test/keys`);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row.getByRole('cell').nth(4)).toHaveText('Never');

  await openAction(page, name, 'Change expiry');
  const dialog = page.getByRole('dialog', { name: `Expiry of “${name}”` });
  await expect(dialog).toContainText('It never expires now.');
  await dialog.getByRole('combobox', { name: 'Expires' }).click();
  await page.getByRole('option', { name: 'In 7 days' }).click();
  await bothThemes(page, 'the expiry dialog');
  await dialog.getByRole('button', { name: 'Save expiry' }).click();
  await expect(page.getByText(`“${name}” now expires`)).toBeVisible();
  const in7days = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  await expect(row.getByRole('cell').nth(4)).toHaveText('in 7 days');
  await expect(row.getByRole('cell').nth(4).locator('time')).toHaveAttribute('title', new RegExp(`^${in7days} .* UTC$`));
  expect((await v1(demo.baseUrl, key.secret, '/v1/generations?limit=1')).status).toBe(200);

  // Changed to a year, then removed (keyboard: the menu and the dialog).
  await openAction(page, name, 'Change expiry');
  await dialog.getByRole('combobox', { name: 'Expires' }).click();
  await page.getByRole('option', { name: 'In 1 year' }).click();
  await dialog.getByRole('button', { name: 'Save expiry' }).click();
  const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
  await expect(row.getByRole('cell').nth(4).locator('time')).toHaveAttribute('title', new RegExp(`^${inAYear} .* UTC$`));
  await row.getByRole('button', { name: `Actions for ${name}` }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Change expiry' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Change expiry' }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Expires' }).click();
  await page.getByRole('option', { name: 'Never' }).click();
  await dialog.getByRole('button', { name: 'Save expiry' }).click();
  await expect(page.getByText(`“${name}” no longer expires.`)).toBeVisible();
  await expect(row.getByRole('cell').nth(4)).toHaveText('Never');
});

test('a revoked key is dimmed with when it was revoked; the keys screen at 1360 and on a phone', async ({ page, demo }) => {
  await page.setViewportSize({ width: 1360, height: 850 });
  const revokedName = `Revoked e2e ${Date.now()}`;
  const revoked = await createKey(page, demo, revokedName);
  await trpc(page, demo, 'keys.revoke', { keyId: revoked.id });
  const activeName = `Active e2e ${Date.now()}`;
  const active = await createKey(page, demo, activeName);
  await trpc(page, demo, 'keys.roll', { keyId: active.id, overlapSeconds: 86_400 });

  await page.goto(`/o/${demo.organizationId}/test/keys`);
  await expect(page.getByRole('row').filter({ hasText: activeName })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: revokedName })).toHaveCount(0);
  await page.getByLabel('Show revoked keys').check();
  const row = page.getByRole('row').filter({ hasText: revokedName });
  const when = row.getByTestId('key-revoked');
  await expect(when).toHaveText(/^Revoked (now|\d+ seconds? ago|\d+ minutes? ago)$/);
  await expect(when.locator('time')).toHaveAttribute('title', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  // No actions for it, and dimmed: its text is the muted colour, not the active rows'.
  await expect(row.getByRole('button')).toHaveCount(0);
  const colour = (name: string) => page.getByRole('row').filter({ hasText: name }).evaluate((el) => getComputedStyle(el).color);
  expect(await colour(revokedName)).not.toBe(await colour(activeName));
  expect(await colour(revokedName)).toBe(await page.locator('main .text-muted-foreground').first().evaluate((el) => getComputedStyle(el).color));
  // Whatever the rows hold (a roll's old secret, a far expiry, a last use with its address), the table fits its card at 1360.
  expect(await page.getByRole('table', { name: 'API keys' }).locator('xpath=..').evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  await bothThemes(page, 'the keys with a revoked one');
  await page.emulateMedia({ colorScheme: 'light' });
  await docScreen(page, 'keys-1360');

  // A phone: each key is a card (the table is hidden), the page fits, the revoked card is dimmed
  // with its time, and a card's one Actions control opens a menu inside the window.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.getByLabel('Show revoked keys').check();
  const cards = page.getByRole('list', { name: 'API keys' });
  const revokedCard = cards.getByRole('listitem').filter({ hasText: revokedName });
  await expect(revokedCard.getByTestId('key-revoked')).toHaveText(/^Revoked /);
  await expect(page.getByRole('table', { name: 'API keys' })).toBeHidden();
  expect(await revokedCard.evaluate((el) => getComputedStyle(el).color)).not.toBe(await cards.getByRole('listitem').filter({ hasText: activeName }).evaluate((el) => getComputedStyle(el).color));
  await expect(revokedCard.getByRole('button')).toHaveCount(0);
  await expectFitsWidth(page, 'the keys on a phone');
  await expectAccessible(page, 'the keys on a phone');
  await docScreen(page, 'keys-390');
  const actions = cards.getByRole('button', { name: `Actions for ${activeName}` });
  await expectInsideWindow(page, actions, 'a card’s Actions on a phone');
  await actions.click();
  for (const item of ['Rename', 'Change expiry', 'Fences', 'Roll key', 'Revoke']) await expectInsideWindow(page, page.getByRole('menuitem', { name: item }), `the ${item} item on a phone`);
  await page.getByRole('menuitem', { name: 'Roll key' }).click();
  await expectInsideWindow(page, page.getByRole('dialog'), 'the roll dialog on a phone');
  await expectFitsWidth(page, 'the roll dialog on a phone');
  await expectAccessible(page, 'the roll dialog on a phone');
});
