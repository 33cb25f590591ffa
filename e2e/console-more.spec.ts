/**
 * What the console adds for everyday work, in Chromium as the demo owner (signed in once per
 * worker, e2e/signed-in.ts): keys renamed and created with an expiry; another organization
 * created; invitations resent and their link copied; the request log's detail with the request's
 * parameters and answer, a prefix path filter, and no "Open in playground" for a request that
 * created nothing (a 400, a 415);
 * thumbnails in the generations list; the loading state while a screen loads, and the top bar from
 * the click on (links and router.push) while the next screen has not arrived. Axe on each new
 * screen state in both themes, and the new dialogs inside a 390 px window.
 */
import type { Page, Request } from '@playwright/test';
import { expect, expectAccessible, expectInsideWindow, test, v1 } from './fixtures';

async function bothThemes(page: Page, context: string): Promise<void> {
  for (const theme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveClass(new RegExp(theme));
    await expectAccessible(page, `${context} (${theme})`, theme === 'dark' ? 'all' : 'colours');
  }
}

test('keys: created with an expiry, renamed by keyboard', async ({ page, demo }) => {
  // Names of this attempt: a retry must not find its failed attempt's key (still active).
  const created = `expiring e2e key ${test.info().retry}`;
  const renamed = `renamed e2e key ${test.info().retry}`;
  await page.goto(`/o/${demo.organizationId}/test/keys`);
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(created);
  await dialog.getByRole('combobox', { name: 'Expires' }).click();
  await page.getByRole('option', { name: 'In 7 days' }).click();
  await bothThemes(page, 'create key dialog with expiry');
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const secret = await dialog.getByTestId('new-key-secret').inputValue();
  // Esc on the once-shown secret asks first.
  await page.keyboard.press('Escape');
  const ask = page.getByRole('alertdialog', { name: 'Close without the secret?' });
  await expect(ask).toContainText('You won’t see this secret again');
  await ask.getByRole('button', { name: 'Close anyway' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: created });
  const in7days = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  await expect(row.getByTitle(new RegExp(`^${in7days} `))).toHaveText('in 7 days');
  expect((await v1(demo.baseUrl, secret, '/v1/generations')).status).toBe(200);

  // Rename, keyboard only: focus the row's Actions, Enter, Rename, Enter, type, Enter.
  await row.getByRole('button', { name: `Actions for ${created}` }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Rename' })).toBeFocused();
  await page.keyboard.press('Enter');
  const rename = page.getByRole('dialog', { name: /Rename/ });
  await expect(rename.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(renamed);
  await page.keyboard.press('Enter');
  await expect(page.getByText(`Key renamed to “${renamed}”.`)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: renamed }).getByTitle(new RegExp(`^${in7days} `))).toBeVisible();
  expect((await v1(demo.baseUrl, secret, '/v1/generations')).status).toBe(200);
});

test('organizations: another one created from the switcher; an invitation resent and its link copied', async ({ page, demo }) => {
  // The dialog's mail line is fetched with the screen, before the dialog opens: arriving after,
  // it moved "Send invitation" under the click.
  const mailLineFetched = page.waitForResponse((r) => r.url().includes('auth.mailDelivery'), { timeout: 15_000 });
  await page.goto(`/o/${demo.organizationId}/test/members`);
  await mailLineFetched;
  const email = `resend-${Date.now()}@example.com`;
  await page.getByRole('button', { name: 'Invite member' }).click();
  await expect(page.getByRole('dialog').getByTestId('mail-destination')).toBeVisible();
  await page.getByRole('dialog').getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByRole('dialog').getByRole('button', { name: 'Send invitation' }).click();
  const pending = page.locator('section', { has: page.getByRole('heading', { name: 'Pending invitations' }) });
  const invitation = pending.getByRole('row').filter({ hasText: email });
  await expect(invitation).toBeVisible();
  await page.keyboard.press('Escape');

  // A resend is a new invitation: the list is fetched again and its row replaced, so wait for that.
  const refetched = page.waitForResponse((r) => r.url().includes('members.invitations'));
  await invitation.getByRole('button', { name: `Resend the invitation of ${email}` }).click();
  await expect(page.getByText(`Invitation sent again to ${email}`)).toBeVisible();
  await refetched;

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await invitation.getByRole('button', { name: `Copy the invitation link of ${email}` }).click();
  const linkDialog = page.getByRole('dialog', { name: `Invitation link for ${email}` });
  const link = await linkDialog.getByTestId('invitation-link').inputValue();
  expect(link).toMatch(/\/invitations\/[0-9A-Za-z]+$/);
  await bothThemes(page, 'invitation link dialog');
  await linkDialog.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('Invitation link copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await linkDialog.getByRole('button', { name: 'Done' }).click();

  // Opened signed out, the copied link shows the invitation but offers no sign-up in the invitee's name.
  // (An explicit empty state: contexts opened in a test otherwise start from the signed-in storageState.)
  const stranger = await page.context().browser()!.newContext({ baseURL: demo.baseUrl, storageState: { cookies: [], origins: [] } });
  const strangerPage = await stranger.newPage();
  await strangerPage.goto(new URL(link).pathname);
  await expect(strangerPage.getByText(/passed on by the inviter/)).toBeVisible();
  await expect(strangerPage.getByRole('button', { name: 'Create account and join' })).toHaveCount(0);
  await stranger.close();

  // A new organization from the switcher.
  await page.getByRole('button', { name: /Switch organization/ }).first().click();
  await page.getByRole('menuitem', { name: 'Create organization' }).click();
  const create = page.getByRole('dialog', { name: 'Create an organization' });
  await create.getByRole('textbox', { name: 'Organization name' }).fill('Second e2e studio');
  await bothThemes(page, 'create organization dialog');
  await create.getByRole('button', { name: 'Create organization' }).click();
  await page.waitForURL(/\/o\/org_[^/]+\/test\/overview/);
  expect(page.url()).not.toContain(demo.organizationId);
  await expect(page.getByRole('button', { name: /Organization: Second e2e studio/ }).first()).toBeVisible();
});

test('request log: the detail shows parameters and answer; a request that created nothing (400, 415) offers no playground; paths filter by prefix', async ({ page, demo }) => {
  const refused = await v1(demo.baseUrl, demo.testKey, '/v1/upscales', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ image: 'https://images.example.com/room.jpg?token=secret-in-url', scale: 'x9', metadata: { ticket: 'E2E-7' } }),
  });
  expect(refused.status).toBe(400);
  const notAnImage = new FormData();
  notAnImage.append('image', new Blob(['plain text, not a photo'], { type: 'image/jpeg' }), 'room.jpg');
  notAnImage.append('scale', 'x2');
  const unsupported = await v1(demo.baseUrl, demo.testKey, '/v1/upscales', { method: 'POST', body: notAnImage });
  expect(unsupported.status).toBe(415);
  expect(unsupported.body).toMatchObject({ error: { code: 'unsupported_image_type', param: 'image' } });
  const ok = await v1(demo.baseUrl, demo.testKey, '/v1/generations?limit=1');
  expect(ok.status).toBe(200);

  await page.goto(`/o/${demo.organizationId}/test/logs`);
  await page.getByLabel('Find a request by its id').fill(refused.requestId);
  await expect(async () => {
    await page.getByRole('button', { name: 'Find' }).click();
    await expect(page.getByRole('row', { name: new RegExp(refused.requestId) })).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  await page.getByRole('row', { name: new RegExp(refused.requestId) }).click();
  const detail = page.getByTestId('request-detail');
  const params = detail.getByRole('region', { name: 'Request parameters' });
  await expect(params).toContainText('"scale": "x9"');
  await expect(params).toContainText('https://images.example.com/room.jpg?[query redacted]');
  await expect(params).not.toContainText('secret-in-url');
  await expect(detail.getByRole('region', { name: 'Response body' })).toContainText('"param": "scale"');
  await bothThemes(page, 'request detail with bodies');
  // It created nothing: there is no generation whose settings the playground would restore.
  await expect(detail.getByRole('link', { name: 'Open in playground' })).toHaveCount(0);

  // A 415 (a file that is no image) neither.
  await expect(async () => {
    await page.goto(`/o/${demo.organizationId}/test/logs?requestId=${unsupported.requestId}`);
    await expect(page.getByRole('row', { name: new RegExp(unsupported.requestId) })).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  await page.getByRole('row', { name: new RegExp(unsupported.requestId) }).click();
  await expect(page.getByTestId('request-detail')).toContainText('415');
  await expect(page.getByTestId('request-detail').getByRole('link', { name: 'Open in playground' })).toHaveCount(0);

  // Path filter: a prefix finds the sub-paths.
  await page.goto(`/o/${demo.organizationId}/test/logs?path=${encodeURIComponent('/v1/gen')}`);
  const table = page.getByRole('table', { name: 'Requests' });
  await expect(table.getByRole('row').filter({ hasText: '/v1/generations' }).first()).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: '/v1/upscales' })).toHaveCount(0);
});

test('generations show thumbnails; a click on a screen whose prefetch is on its way shows the bar, then the screen from that one render', async ({ page, demo }) => {
  const form = new FormData();
  const sharp = (await import('sharp')).default;
  const jpeg = await sharp({ create: { width: 160, height: 120, channels: 3, background: { r: 90, g: 140, b: 120 } } }).jpeg().toBuffer();
  form.append('image', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'room.jpg');
  form.append('scale', 'x2');
  const created = await v1(demo.baseUrl, demo.testKey, '/v1/upscales', { method: 'POST', body: form });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.id as string;

  // Prefetches (Next's router marks them), from the page load on. The intent's prefetch of a
  // route is its tree (`next-router-segment-prefetch: /_tree`), then the whole screen in one
  // request that is not marked (a full prefetch asks what a navigation asks: docs/console.md,
  // "Prefetch on intent").
  const base = `/o/${demo.organizationId}/test`;
  const prefetched: string[] = [];
  let usageTree = false;
  let usageRenders = 0;
  page.on('request', (request) => {
    const headers = request.headers();
    if (headers['next-router-prefetch']) prefetched.push(new URL(request.url()).pathname);
    else if (new URL(request.url()).pathname === `${base}/usage` && headers['rsc']) usageRenders += 1;
  });
  const ended = (request: Request) => {
    const headers = request.headers();
    if (new URL(request.url()).pathname === `${base}/usage` && headers['next-router-segment-prefetch'] === '/_tree') usageTree = true;
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  await page.goto(`${base}/generations`);
  const row = page.getByRole('row').filter({ hasText: id });
  const thumbnail = row.getByRole('img', { name: `Output of ${id}` });
  await expect(thumbnail).toBeVisible();
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  // The next screen's server render is held: a click meanwhile shows the navigation bar at once
  // and keeps the screen it leaves until the new one is there (no blank, no skeleton flash).
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/usage(\?|$)/, async (route) => {
    // The route's tree passes; the screen's render waits.
    if (route.request().headers()['next-router-prefetch']) return route.continue();
    await held;
    await route.continue();
  });
  // Pointing at the link prefetches its screen, whole, and only that screen: the sidebar's other
  // links are not asked for on sight. The click comes once the route's tree has arrived, while
  // the screen's render is still on its way: it waits for the render the pointer asked for
  // rather than asking again.
  const usage = page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Usage' });
  await usage.hover();
  await expect.poll(() => usageTree, { message: 'the route tree of Usage has arrived' }).toBe(true);
  await expect.poll(() => usageRenders, { message: 'pointing at Usage asks for the whole screen' }).toBe(1);
  expect([...new Set(prefetched)]).toEqual([`${base}/usage`]);
  await usage.click();
  const bar = page.getByRole('status', { name: 'Opening the page' });
  await expect(bar).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Generations', level: 1 })).toBeVisible();
  release();
  await expect(page.getByRole('heading', { name: 'Usage', level: 1 })).toBeVisible();
  await expect(bar).toHaveCount(0);
  await expect(page.getByTestId('page-loading')).toHaveCount(0);
  expect(usageRenders, 'the click used the render the pointer asked for').toBe(1);
});

/**
 * Holds every request for a console path (its prefetches too: a slow network) until released,
 * and counts them, so a test can look at the window while the next screen has not arrived.
 */
async function holdScreen(page: Page, screen: string): Promise<{ release: () => void; requests: () => number }> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let requests = 0;
  await page.route(new RegExp(`/${screen}(\\?|$)`), async (route) => {
    requests += 1;
    await held;
    await route.continue().catch(() => undefined); // a prefetch the router gave up on
  });
  return { release, requests: () => requests };
}

test('navigation feedback from the click: a link and the user menu show the top bar at once, before the next screen arrives', async ({ page, demo }) => {
  // The next screens are held from the start, their prefetches too: the pointer on its way to the
  // link prefetches the screen (docs/console.md, "Prefetch on intent"), and a click on a screen
  // whose prefetch has arrived shows its loading state at once, which is the other feedback.
  const webhooks = await holdScreen(page, 'webhooks');
  const account = await holdScreen(page, 'account');
  await page.goto(`/o/${demo.organizationId}/test/overview`);
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  const bar = page.getByRole('status', { name: 'Opening the page' });
  await expect(bar).toHaveCount(0);
  // A click before React has hydrated the sidebar is a plain link's full load (no bar): CI saw it
  // once. React marks the nodes it has hydrated with its fiber key.
  await page.waitForFunction(() => {
    const link = document.querySelector('nav[aria-label="Console"] a');
    return link !== null && Object.keys(link).some((key) => key.startsWith('__reactFiber'));
  });

  // A sidebar link whose screen (and its prefetch) is held: the bar shows while the old screen stays.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' }).click();
  await expect(bar).toBeVisible();
  await expect.poll(webhooks.requests).toBeGreaterThan(0);
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toHaveCount(0);
  await bothThemes(page, 'navigation bar after a click');
  webhooks.release();
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  await expect(bar).toHaveCount(0);
  await expect(page.getByTestId('page-loading')).toHaveCount(0);

  // A navigation by code (the user menu's "Account and password" calls router.push).
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Account and password' }).click();
  await expect(bar).toBeVisible();
  await expect.poll(account.requests).toBeGreaterThan(0);
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  account.release();
  await expect(page).toHaveURL(/\/test\/account$/);
  await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
  await expect(bar).toHaveCount(0);
});

test('the new dialogs fit a 390 px phone', async ({ page, demo }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/o/${demo.organizationId}/test/keys`);
  await page.getByRole('button', { name: 'Create key' }).click();
  await expectInsideWindow(page, page.getByRole('dialog'), 'create key dialog');
  await expectInsideWindow(page, page.getByRole('combobox', { name: 'Expires' }), 'expiry field');
  await page.keyboard.press('Escape');
  // On a phone the switcher is in the console menu.
  await page.getByRole('button', { name: 'Open the console menu' }).click();
  await page.getByRole('button', { name: /Switch organization/ }).first().click();
  await page.getByRole('menuitem', { name: 'Create organization' }).click();
  await expectInsideWindow(page, page.getByRole('dialog', { name: 'Create an organization' }), 'create organization dialog');
});

test('one accent colour: primary buttons, switches, checkboxes and the browser’s own radios share it, in both themes', async ({ page, demo }) => {
  await page.goto(`/o/${demo.organizationId}/test/playground?kind=decoration`);
  const run = page.getByTestId('run');
  const modeSwitch = page.getByTestId('mode-switch').first();
  await expect(modeSwitch).toHaveAttribute('data-state', 'checked'); // test mode
  const plants = page.getByRole('checkbox', { name: 'plants' });
  await plants.click();
  await expect(plants).toHaveAttribute('data-state', 'checked');
  for (const theme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveClass(new RegExp(theme));
    const accent = await run.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await modeSwitch.evaluate((el) => getComputedStyle(el).backgroundColor), `the switch in ${theme}`).toBe(accent);
    expect(await plants.evaluate((el) => getComputedStyle(el).backgroundColor), `the checkbox in ${theme}`).toBe(accent);
    expect(await page.locator('html').evaluate((el) => getComputedStyle(el).accentColor), `the browser's controls in ${theme}`).toBe(accent);
    await expectAccessible(page, `playground with the accent (${theme})`, theme === 'dark' ? 'colours' : 'all');
  }
  // The browser's own radios (the edit's mode) take the page's accent.
  await page.goto(`/o/${demo.organizationId}/test/playground?kind=edit`);
  const byPrompt = page.getByRole('radio', { name: 'By instruction (prompt)' });
  expect(await byPrompt.evaluate((el) => getComputedStyle(el).accentColor)).toBe(await page.getByTestId('run').evaluate((el) => getComputedStyle(el).backgroundColor));
});
