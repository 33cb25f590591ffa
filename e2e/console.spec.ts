/**
 * The issue's "done when", in Chromium against `npm start`'s production server: the demo owner
 * signs in (password, then an e-mail link from the mailbox), switches modes, creates a key and
 * calls /v1 with it, finds the calls in the log by request-id, filters the log, revokes the key
 * (401), views and cancels a generation, reads usage charts, invites a developer who accepts and
 * sees only a developer's screens.
 */
import { backgroundUpscale, expect, holdEngineRuns, inviteDeveloper, openScreen, signInWithPassword, SIGNED_OUT, test, v1 } from './fixtures';
import { balanceCents, lastMail, linkIn } from './mailbox';

test.describe.configure({ mode: 'default' });

test.describe('signed out', () => {
  test.use({ storageState: SIGNED_OUT });

  test('sign in with the demo owner password; test mode is marked; the mode switch keeps the screen', async ({ page, demo }) => {
    const euros = (cents: number) => `€${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    const before = await balanceCents(demo);
    await signInWithPassword(page, demo.email, demo.password);
    await expect(page.getByTestId('test-mode-banner')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    // The organization's balance as the database has it (billing.spec may add credit meanwhile).
    const shown = await page.getByTestId('balance').textContent();
    expect([euros(before), euros(await balanceCents(demo))]).toContain(shown);
    // Nothing spent yet: no signed zero ("-€0.00"), in the server-rendered page either.
    await expect(page.getByTestId('month-spend')).toHaveText(/^€0\.00 of €5,000\.00$/); // tier 2 (e2e/global-setup.ts)

    await page.getByRole('link', { name: 'API keys' }).click();
    await expect(page.getByRole('cell', { name: 'Demo test key', exact: true })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Demo live key', exact: true })).toHaveCount(0);

    await page.getByRole('switch', { name: 'Test mode' }).click();
    await page.waitForURL(`**/o/${demo.organizationId}/live/keys`);
    await expect(page.getByTestId('test-mode-banner')).toHaveCount(0);
    await expect(page.getByRole('cell', { name: 'Demo live key', exact: true })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Demo test key', exact: true })).toHaveCount(0);

    await page.getByRole('switch', { name: 'Test mode' }).click();
    await page.waitForURL(`**/o/${demo.organizationId}/test/keys`);
    await expect(page.getByTestId('test-mode-banner')).toBeVisible();
  });

  test('a wrong password is refused with a message, and / sends a signed-out visitor to sign-in', async ({ page, demo }) => {
    await page.goto('/');
    await page.waitForURL('**/sign-in');
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(demo.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Wrong e-mail or password.' })).toBeVisible();
    await expect(page).toHaveURL(/\/sign-in/);
  });
});

test('sign in with an e-mail link from the mailbox; the console never shows it', async ({ page, browser, demo }) => {
  const visitor = await browser.newContext({ baseURL: demo.baseUrl, storageState: SIGNED_OUT });
  const signedOut = await visitor.newPage();
  await signedOut.goto('/sign-in');
  await signedOut.getByRole('tab', { name: 'E-mail me a link' }).click();
  await signedOut.getByRole('textbox', { name: 'E-mail', exact: true }).fill(demo.email);
  await signedOut.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await expect(signedOut.getByRole('status')).toContainText('a sign-in link is on its way');
  await expect(signedOut.getByRole('status').getByTestId('mail-destination')).toContainText('This installation has no SMTP server');

  // Without SMTP the message reaches the operator only (log, `roomtone mail list`); an owner's
  // Settings show no access mail, not even their own.
  const link = linkIn((await lastMail(demo, demo.email, 'sign-in link')).body, '/api/auth/callback/email');
  await page.goto(`/o/${demo.organizationId}/test/settings`);
  await expect(page.getByRole('heading', { name: 'Your notification mail' })).toBeVisible();
  await expect(page.getByText('Your Roomtone sign-in link')).toHaveCount(0);

  await signedOut.goto(link);
  await signedOut.waitForURL(/\/o\/org_[^/]+\/test\/overview/);
  await expect(signedOut.getByRole('button', { name: `Account: ${demo.email}` })).toBeVisible();
  await visitor.close();
});

test('create a key, call /v1 with it, find the calls in the log by request-id, revoke it: 401', async ({ page, demo }) => {
  await openScreen(page, demo, 'overview');
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog');
  // Each permission says what it allows.
  await expect(dialog.getByRole('checkbox', { name: 'renders' })).toHaveAccessibleDescription('Create renders (POST /v1/renders).');
  await expect(dialog.getByRole('checkbox', { name: 'generations_read' })).toHaveAccessibleDescription(/Read and list generations/);
  // A name of this attempt: a retry must not find its failed attempt's key (still active).
  const keyName = `e2e backend ${test.info().retry}`;
  await dialog.getByLabel('Name').fill(keyName);
  await dialog.getByRole('checkbox', { name: 'edits' }).click(); // unchecked: not needed
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.getByRole('alert')).toContainText('only time the secret is shown');
  const secret = await dialog.getByTestId('new-key-secret').inputValue();
  expect(secret).toMatch(/^rt_test_/);
  await dialog.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row').filter({ hasText: keyName });
  await expect(row).toBeVisible();
  await expect(row).not.toContainText('edits');

  const ok = await v1(demo.baseUrl, secret, '/v1/generations?limit=1');
  expect(ok.status).toBe(200);
  const missing = await v1(demo.baseUrl, secret, '/v1/generations/gen_doesnotexist0');
  expect(missing.status).toBe(404);
  expect(missing.requestId).toMatch(/^req_/);

  // The failed request, by its request-id (the log is written in batches: poll).
  await page.getByRole('link', { name: 'Request log' }).click();
  await page.getByLabel('Find a request by its id').fill(missing.requestId);
  await expect(async () => {
    await page.getByRole('button', { name: 'Find' }).click();
    await expect(page.getByRole('row', { name: new RegExp(missing.requestId) })).toBeVisible({ timeout: 8_000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByRole('row')).toHaveCount(2); // header + the one line
  await page.getByRole('row', { name: new RegExp(missing.requestId) }).click();
  const detail = page.getByTestId('request-detail');
  await expect(detail).toContainText('/v1/generations/gen_doesnotexist0');
  await expect(detail).toContainText('404');
  await expect(detail).toContainText('resource_not_found');
  await expect(detail).toContainText(keyName);
  await page.keyboard.press('Escape');

  await page.getByLabel('Find a request by its id').fill(ok.requestId);
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page.getByRole('row', { name: new RegExp(ok.requestId) })).toContainText('200');

  // Revoke, with confirmation; the key is refused at once.
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByRole('button', { name: `Actions for ${keyName}` }).click();
  await page.getByRole('menuitem', { name: 'Revoke' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByText(`Key “${keyName}” revoked. Requests with it now get 401.`)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: keyName })).toHaveCount(0);
  const refused = await v1(demo.baseUrl, secret, '/v1/generations?limit=1');
  expect(refused.status).toBe(401);
});

test('filter the log: errors only, by method and path, and clear', async ({ page, demo }) => {
  // Ids of this attempt: a retry must not find its failed attempt's lines (the path filter matches by prefix).
  const missing = (i: number) => `gen_missing${test.info().retry}x${i}`;
  for (let i = 0; i < 3; i++) expect((await v1(demo.baseUrl, demo.testKey, `/v1/generations/${missing(i)}`)).status).toBe(404);
  expect((await v1(demo.baseUrl, demo.testKey, '/v1/styles')).status).toBe(200);
  await page.goto(`/o/${demo.organizationId}/test/logs`);
  // The log is written in batches: reload until the lines are there (pages are slow on a loaded machine).
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('row').filter({ hasText: '/v1/styles' }).first()).toBeVisible({ timeout: 30_000 });
  }).toPass({ timeout: 120_000 });

  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Errors (4xx and 5xx)' }).click();
  await page.waitForURL(/statusClass=errors/);
  const body = page.getByRole('table', { name: 'Requests' }).locator('tbody');
  await expect(body.getByRole('row').filter({ hasText: '/v1/styles' })).toHaveCount(0);
  await expect(body.getByRole('row').filter({ hasText: missing(2) })).toBeVisible();
  for (const status of await body.getByRole('row').locator('td:nth-child(2)').allInnerTexts()) expect(Number(status)).toBeGreaterThanOrEqual(400);

  await page.getByLabel('Path').fill(`/v1/generations/${missing(1)}`);
  await page.waitForURL(/path=/);
  await expect(body.getByRole('row')).toHaveCount(1);
  await expect(body.getByRole('row')).toContainText(missing(1));

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(body.getByRole('row').filter({ hasText: '/v1/styles' }).first()).toBeVisible();
});

test('view a generation with its output, and cancel one waiting in the queue', async ({ page, demo }) => {
  // The demo organization's runs are held while this test cancels: the first two take the two
  // light worker slots (WORKER_LIGHT_CONCURRENCY's default) and wait there, the third waits in
  // the queue until the hold is released. Other tests' generations meanwhile wait seconds.
  const hold = holdEngineRuns(demo, demo.organizationId);
  const ids: string[] = [];
  const detail = page.getByTestId('generation-detail');
  try {
    for (let i = 0; i < 3; i++) ids.push(await backgroundUpscale(demo.baseUrl, demo.testKey));
    await page.goto(`/o/${demo.organizationId}/test/generations`);
    await page.getByRole('row', { name: new RegExp(ids[2]!) }).click();
    await expect(detail).toContainText('in progress');
    await detail.getByRole('button', { name: 'Cancel generation' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel generation' }).click();
    await expect(detail).toContainText('canceled');
    await expect(detail.getByRole('button', { name: 'Cancel generation' })).toHaveCount(0);
    await page.keyboard.press('Escape');
  } finally {
    hold.release();
  }
  const first = ids[0]!;
  const last = ids[2]!;

  // The first finishes; its detail shows settings, timeline and the output image.
  await expect(async () => {
    const res = await v1(demo.baseUrl, demo.testKey, `/v1/generations/${first}`);
    expect(res.body.status).toBe('succeeded');
  }).toPass({ timeout: 90_000 });
  await page.goto(`/o/${demo.organizationId}/test/generations?open=${first}`);
  await expect(detail).toContainText('succeeded');
  await expect(detail).toContainText('"scale": "x2"');
  await expect(detail).toContainText('Started');
  const image = detail.getByRole('img', { name: /Output 1 of/ });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);

  await page.goto(`/o/${demo.organizationId}/test/generations?status=canceled`);
  await expect(page.getByRole('row', { name: new RegExp(last) })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(first) })).toHaveCount(0);
});

test('usage charts render the seeded generations; CSV export downloads the days', async ({ page, demo }) => {
  await backgroundUpscale(demo.baseUrl, demo.testKey);
  await page.goto(`/o/${demo.organizationId}/test/usage`);
  await expect(page.getByTestId('usage-total')).not.toHaveText('0');
  const charts = page.getByTestId('chart');
  await expect(charts).toHaveCount(3);
  await expect(charts.first().locator('.recharts-bar-rectangle path, .recharts-bar-rectangle').first()).toBeAttached();
  // Statuses in their meaning's colours, with legends that say what is counted; daily sums as bars (no smoothed line).
  const byStatus = charts.nth(1);
  await expect(page.getByRole('heading', { name: 'Generations created per day, by status now' })).toBeVisible();
  for (const [label, colour] of [
    ['succeeded', 'var(--chart-success)'],
    ['failed (refunded)', 'var(--chart-failure)'],
    ['canceled (refunded)', 'var(--chart-neutral)'],
    ['in progress', 'var(--chart-progress)'],
  ] as const) {
    const item = byStatus.locator('.recharts-legend-item').filter({ hasText: new RegExp(`^${label.replace(/[()]/g, '\\$&')}$`) });
    await expect(item).toHaveCount(1);
    await expect(item.locator('.recharts-surface path').first()).toHaveAttribute('fill', colour);
  }
  // The tokens as the browser paints them (RGB of one pixel): success is green, failure red.
  const rgb = (token: string) =>
    page.evaluate((name) => {
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 1;
      const context = canvas.getContext('2d')!;
      context.fillStyle = getComputedStyle(document.documentElement).getPropertyValue(name);
      context.fillRect(0, 0, 1, 1);
      const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
      return { r: r!, g: g!, b: b! };
    }, token);
  const success = await rgb('--chart-success');
  const failure = await rgb('--chart-failure');
  expect(success.g, JSON.stringify(success)).toBeGreaterThan(Math.max(success.r, success.b));
  expect(failure.r, JSON.stringify(failure)).toBeGreaterThan(Math.max(failure.g, failure.b));
  await expect(charts.nth(2).locator('.recharts-line')).toHaveCount(0);
  await expect(charts.nth(2).locator('.recharts-bar')).toHaveCount(1);
  await page.getByRole('button', { name: '7 days' }).click();
  await expect(charts.first().locator('.recharts-xAxis .recharts-cartesian-axis-tick')).toHaveCount(7);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  const text = await (await file.createReadStream()).toArray();
  const csv = Buffer.concat(text as Buffer[]).toString('utf8').trim().split('\n');
  expect(csv[0]).toBe('date,render,edit,decoration,upscale,succeeded,failed,canceled,in_progress,total,spend_cents');
  expect(csv).toHaveLength(8);
});

test('invite a developer who accepts and sees only a developer’s screens', async ({ page, browser, demo }) => {
  // An address of this attempt: a retry's invitation to its failed attempt's member would be refused.
  const email = `developer-${test.info().retry}@example.com`;
  const { dev, close } = await inviteDeveloper(page, browser, demo, email, 'Dee Developer');
  const nav = dev.getByRole('navigation', { name: 'Console' });
  for (const name of ['Overview', 'API keys', 'Request log', 'Generations', 'Usage', 'Settings']) await expect(nav.getByRole('link', { name })).toBeVisible();
  for (const name of ['Billing', 'Members']) await expect(nav.getByRole('link', { name })).toHaveCount(0);
  await dev.goto(`/o/${demo.organizationId}/test/billing`);
  await expect(dev.getByRole('heading', { name: 'Not available' })).toBeVisible();
  await close();

  await page.goto(`/o/${demo.organizationId}/test/members`);
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText('developer');

  // A role change applies only once confirmed: the promotion to owner is canceled, admin confirmed.
  const role = page.getByRole('combobox', { name: `Role of ${email}` });
  await role.click();
  await page.getByRole('option', { name: 'owner', exact: true }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm.getByRole('heading')).toHaveText(`Make ${email} an owner?`);
  await expect(confirm).toContainText('Owners can do everything');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(role).toHaveText('developer');
  await page.reload();
  await expect(page.getByRole('combobox', { name: `Role of ${email}` })).toHaveText('developer');
  await page.getByRole('combobox', { name: `Role of ${email}` }).click();
  await page.getByRole('option', { name: 'admin', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Make admin' }).click();
  await expect(page.getByText('Role changed to admin.')).toBeVisible();
  await expect(page.getByRole('combobox', { name: `Role of ${email}` })).toHaveText('admin');
});
