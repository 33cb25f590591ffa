/**
 * Every screen, visited once, seen in both themes and at both sizes: light on a 1360×900 laptop,
 * dark on a 390×844 phone. A screen is loaded once (on the laptop, in light) and checked there;
 * then the theme is switched in place (the system's colour scheme, which next-themes follows
 * live) and the page resized, rather than loading it again: the theme swaps CSS variables under
 * the `dark` class and no component renders differently by theme (the server's HTML is the same
 * in both), and the shell's phone layout is CSS alone (no component reads the window's width;
 * the usage charts measure their box and follow a resize), so a resized page is the page a
 * phone loads. On each screen, the checks of both concerns:
 * - Fit: the page is never wider than the viewport (`document.documentElement.scrollWidth`),
 *   whatever the data (long tables scroll inside their card, code inside its box) and in the
 *   playground's every state. On the phone the shell collapses into a menu button and a drawer,
 *   and the test-mode switch and the user menu stay on screen.
 * - Accessibility: no serious or critical axe violation, every rule in light; in dark the rules a
 *   theme can change (fixtures.ts, THEME_RULES: a theme swaps colours only), scanned at the
 *   laptop's width, so each theme is scanned where the desktop console shows its tables and
 *   sidebar. With E2E_SCREENSHOTS=1 a full-page screenshot of each in e2e/screenshots/ for a
 *   person to look at.
 * - No screen logs a console error or an uncaught exception (hydration mismatches, failed loads).
 * Signed-out pages and signing in, too. Visiting a screen costs a page load and a hydration;
 * the checks on a loaded page are cheap next to it: one visit carries them all. The pages after
 * the screens (details, dialogs, the drawer, the playground, the signed-out pages) are loaded in
 * dark on the phone, so the console is also hydrated in dark at a phone's width. The screens are
 * shared among a few tests that run in parallel, each screen in one of them (below).
 */
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { docScreen } from './doc-screens';
import type { E2EState } from './global-setup';
import { backgroundUpscale, collectConsoleErrors, expect, expectAccessible, expectFitsWidth, screenshot, SIGNED_OUT, test, v1 } from './fixtures';
import { paint } from './playground-helpers';

const LAPTOP = { name: 'laptop', width: 1360, height: 900 } as const;
const PHONE = { name: 'phone', width: 390, height: 844 } as const;

type Viewport = typeof LAPTOP | typeof PHONE;

const SCREENS = ['overview', 'keys', 'logs', 'generations', 'playground', 'billing', 'usage', 'members', 'webhooks', 'audit', 'settings', 'account'] as const;
type Screen = (typeof SCREENS)[number];

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-layout-'));
const ROOM = path.join(workDir, 'room-with-a-rather-long-file-name-that-could-push-the-layout.jpg');

async function roomPhoto(): Promise<string> {
  if (!fs.existsSync(ROOM)) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><rect width="1200" height="520" fill="#d8cbb0"/><rect y="520" width="1200" height="280" fill="#7a5532"/></svg>`;
    await sharp(Buffer.from(svg)).jpeg().toFile(ROOM);
  }
  return ROOM;
}

/** Loaded: the heading, and no skeleton left (a generation's progress bar also says data-state="loading": not a skeleton). */
async function loaded(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.locator('[role="status"][data-state="loading"]')).toHaveCount(0);
}

/** The screens' own loading states are gone (a skeleton, a loader labelled "Loading…"). */
async function settled(page: Page): Promise<void> {
  await loaded(page);
  await expect(page.locator('[role="status"][data-state="loading"], [role="status"][aria-label^="Loading"]')).toHaveCount(0);
}

/** The system's colour scheme, and the console following it (next-themes sets the class live). */
async function theme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${scheme}\\b`));
}

/**
 * The page at another size. The usage charts measure their box (ResizeObserver) and lay out
 * again a frame or two after the resize: wait up to 10 s for the page to fit, then the checks
 * that follow assert it (a page that still does not fit fails there, with what sticks out).
 */
async function resize(page: Page, viewport: Viewport): Promise<void> {
  await page.setViewportSize({ width: viewport.width, height: viewport.height });
  await page.waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, undefined, { timeout: 10_000 }).catch(() => undefined);
}

/**
 * The page as it is, in both themes: every axe rule in light, the colour rules in dark, both at
 * the laptop's width; the page is left in dark on the phone.
 */
async function scanBoth(page: Page, what: string): Promise<void> {
  await resize(page, LAPTOP);
  await theme(page, 'light');
  await expectAccessible(page, `${what} (light)`, 'all');
  await theme(page, 'dark');
  await expectAccessible(page, `${what} (dark, ${LAPTOP.width} px)`, 'colours');
  await resize(page, PHONE);
}

/** Fits the phone and the laptop (the page resized, not loaded again); left on the phone. */
async function fitsBoth(page: Page, what: string): Promise<void> {
  for (const viewport of [PHONE, LAPTOP]) {
    await resize(page, viewport);
    await expectFitsWidth(page, `${what} at ${viewport.width} px`);
  }
  await resize(page, PHONE);
}

/** Within the viewport horizontally and visible. */
async function onScreen(page: Page, locator: ReturnType<Page['getByRole']>, width: number, what: string): Promise<void> {
  await expect(locator, what).toBeVisible();
  const box = await locator.boundingBox();
  expect(box, what).not.toBeNull();
  expect(box!.x, `${what} starts on screen`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what} ends on screen`).toBeLessThanOrEqual(width);
}

/** Two fields side by side must not cover each other (the log's and generations' time filters). */
async function expectApart(page: Page, a: string, b: string, context: string): Promise<void> {
  const [boxA, boxB] = await Promise.all([page.locator(a).boundingBox(), page.locator(b).boundingBox()]);
  expect(boxA && boxB, context).toBeTruthy();
  const overlap = boxA!.x < boxB!.x + boxB!.width && boxB!.x < boxA!.x + boxA!.width && boxA!.y < boxB!.y + boxB!.height && boxB!.y < boxA!.y + boxA!.height;
  expect(overlap, `${context}: ${a} and ${b} overlap`).toBe(false);
}

/**
 * The file's tests run in parallel (each its own group of Playwright's queue): this file is one
 * of the suite's longest, and as one test it kept one worker busy at the end of the run while
 * the other had nothing left (docs/testing.md, "The e2e's tail"). Each screen is still loaded
 * once, in one of the tests below; no test depends on another's data (no beforeAll: in a
 * parallel file Playwright would pack the tests sharing such a hook into one group a worker).
 * Longest first: the queue hands them out in this order.
 */
test.describe.configure({ mode: 'parallel' });

/** Data that makes tables wide: failed requests with long paths, a generation. */
async function wideData(demo: E2EState): Promise<void> {
  await backgroundUpscale(demo.baseUrl, demo.testKey);
  await longPathRequest(demo);
  await v1(demo.baseUrl, demo.testKey, '/v1/edit-materials?limit=1000');
}

const LONG_PATH = '/v1/generations/gen_does_not_exist_with_a_long_identifier_for_the_log_table';

async function longPathRequest(demo: E2EState): Promise<void> {
  expect((await v1(demo.baseUrl, demo.testKey, LONG_PATH)).status).toBe(404);
}

/**
 * Each screen loaded on the laptop in light and checked there, then in dark at the laptop's
 * width and on the phone (the page switched and resized in place); left in dark on the phone.
 */
async function checkScreens(page: Page, base: string, screens: readonly Screen[], consoleErrors: ReturnType<typeof collectConsoleErrors>): Promise<void> {
  for (const screen of screens) {
    // Loaded on the laptop in light.
    await resize(page, LAPTOP);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${base}/${screen}`);
    await settled(page);
    await expect(page.locator('html')).toHaveClass(/\blight\b/);
    await expectFitsWidth(page, `${screen} at ${LAPTOP.width} px`);
    await expectAccessible(page, `${screen} (light)`, 'all');
    await screenshot(page, `${screen}-light`);
    if (screen === 'generations') await expectApart(page, '#gen-from', '#gen-to', 'generation filters');
    if (screen === 'logs') {
      await expectApart(page, '#filter-from', '#filter-to', 'log filters');
      await expectFitsWidth(page, `the log filters at ${LAPTOP.width} px`);
    }
    if (screen === 'billing') await expect(page.getByText(/coming with/)).toHaveCount(0); // no internal note
    // The organization's name is whole in the sidebar, not cut with room to spare.
    const name = page.getByRole('complementary').getByTestId('organization-name');
    await expect(name).toHaveText('Demo organization');
    expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight)).toBe(true);
    if (screen === 'keys') {
      // The keys table fits its card on a laptop: the Actions menu is not clipped behind a scroll.
      const frame = page.getByRole('table', { name: 'API keys' }).locator('xpath=..');
      expect(await frame.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    }

    // The same page in dark: its colours at the laptop's width, then on the phone.
    await theme(page, 'dark');
    await expectAccessible(page, `${screen} (dark, ${LAPTOP.width} px)`, 'colours');
    await resize(page, PHONE);
    await expectFitsWidth(page, `${screen} at ${PHONE.width} px`);
    await screenshot(page, `${screen}-dark`);
    if (screen === 'generations') await expectApart(page, '#gen-from', '#gen-to', 'generation filters on a phone');
    if (screen === 'logs') {
      // On the phone the filters wait behind the Filter control.
      await page.getByRole('button', { name: /^Filter/ }).click();
      await expectApart(page, '#filter-from', '#filter-to', 'log filters on a phone');
      await expectFitsWidth(page, `the log filters at ${PHONE.width} px`);
    }
    await onScreen(page, page.getByRole('switch', { name: 'Test mode' }), PHONE.width, `${screen}: the test-mode switch`);
    await onScreen(page, page.getByRole('button', { name: /^Account: / }), PHONE.width, `${screen}: the user menu`);
    consoleErrors.expectNone(`on ${screen}`);
  }
}

/** Loaded in dark on the phone from here on (a test's pages after its screens). */
async function darkPhone(page: Page): Promise<void> {
  await resize(page, PHONE);
  await page.emulateMedia({ colorScheme: 'dark' });
}

test('the screens from overview to billing in light and dark at both sizes; a generation, a request, the create-key dialog and the drawer on the phone', async ({ page, demo }) => {
  await wideData(demo);
  const consoleErrors = collectConsoleErrors(page);
  const base = `/o/${demo.organizationId}/test`;
  await checkScreens(page, base, SCREENS.slice(0, SCREENS.indexOf('usage')), consoleErrors);

  // A generation's detail, the log's detail, a dialog, each fitting both sizes.
  await darkPhone(page);
  await page.goto(`${base}/generations`);
  await loaded(page);
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  // Near the row's start: its middle may be the id's copy button, which copies instead of opening.
  await page.getByRole('row').nth(1).click({ position: { x: 8, y: 8 } });
  await expect(page.getByTestId('generation-detail')).toBeVisible();
  await fitsBoth(page, 'a generation detail');
  await page.goto(`${base}/logs`);
  await loaded(page);
  // On the phone a request is a card (a button), on the laptop a table row: opened from each.
  await page.getByRole('list', { name: 'Requests' }).getByRole('button').first().click();
  await expect(page.getByTestId('request-detail')).toBeVisible();
  await expectFitsWidth(page, `a request-log detail at ${PHONE.width} px`);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('request-detail')).toBeHidden();
  await resize(page, LAPTOP);
  await page.getByRole('row').nth(1).click();
  await expect(page.getByTestId('request-detail')).toBeVisible();
  await expectFitsWidth(page, `a request-log detail at ${LAPTOP.width} px`);
  await resize(page, PHONE);
  await page.goto(`${base}/keys`);
  await loaded(page);
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await fitsBoth(page, 'the create-key dialog');
  await scanBoth(page, 'the create-key dialog');
  await screenshot(page, 'keys-create-dark');
  consoleErrors.expectNone('with the create key dialog');
  await page.keyboard.press('Escape');

  // On the phone the sidebar is a drawer behind a menu button; on the laptop it is on screen.
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeHidden();
  await page.getByRole('button', { name: 'Open the console menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Roomtone console' });
  await expect(drawer.getByRole('navigation', { name: 'Console' })).toBeVisible();
  await expectFitsWidth(page, 'the navigation drawer');
  await expectAccessible(page, 'the navigation drawer on a phone');
  await drawer.getByRole('link', { name: 'Usage' }).click();
  await page.waitForURL(`**${base}/usage`);
  await expect(drawer).toBeHidden();
  await resize(page, LAPTOP);
  await expect(page.getByRole('button', { name: 'Open the console menu' })).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeVisible();
  consoleErrors.expectNone('of the console screens');
});

test('the screens from usage to account in light and dark at both sizes; a live endpoint with a long URL, its list and page on the phone', async ({ page, demo }) => {
  const consoleErrors = collectConsoleErrors(page);
  const base = `/o/${demo.organizationId}/test`;

  // An endpoint with a long URL (accepted without resolving DNS: delivery checks it). In live
  // mode: the webhooks e2e starts from an empty test-mode list.
  await resize(page, LAPTOP);
  await page.emulateMedia({ colorScheme: 'light' });
  const live = `/o/${demo.organizationId}/live`;
  await page.goto(`${live}/webhooks`);
  await loaded(page);
  await page.getByRole('button', { name: 'Add endpoint' }).first().click();
  const add = page.getByRole('dialog');
  // A URL of this attempt: a retry must find one endpoint of its own, not its failed attempt's too.
  const receiver = `a-rather-long-path-to-the-receiver/${test.info().retry}`;
  await add.getByRole('textbox', { name: 'Endpoint URL' }).fill(`https://hooks.example.com/receivers/roomtone/${receiver}`);
  await add.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(add.getByTestId('new-signing-secret')).toBeVisible();
  await fitsBoth(page, 'the endpoint secret dialog');
  await add.getByRole('button', { name: 'Done' }).click();

  await checkScreens(page, base, SCREENS.slice(SCREENS.indexOf('usage')), consoleErrors);

  await darkPhone(page);
  await page.goto(`${live}/webhooks`);
  await loaded(page);
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await fitsBoth(page, 'the live endpoint list');
  await page.getByRole('link', { name: new RegExp(receiver) }).click();
  await loaded(page);
  await fitsBoth(page, 'an endpoint page');
  consoleErrors.expectNone('of the console screens');
});

test('the playground in its states fits the phone and the laptop: on load, a long prompt, a painted mask with two layers, a result', async ({ page, demo }) => {
  const consoleErrors = collectConsoleErrors(page);
  const base = `/o/${demo.organizationId}/test`;
  await darkPhone(page);
  // The painted mask makes the next page load ask first (beforeunload): leave.
  page.on('dialog', (dialog) => void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()));
  await page.goto(`${base}/playground`);
  await loaded(page);
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await fitsBoth(page, 'the playground on load');
  const kinds = page.getByRole('radiogroup', { name: 'Kind of creation' });
  await expect(async () => {
    await kinds.getByRole('radio', { name: 'Edit', exact: true }).click();
    await expect(kinds.getByRole('radio', { name: 'Edit', exact: true })).toBeChecked({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await page.getByLabel('Image file').setInputFiles(await roomPhoto());
  await expect(page.getByTestId('image-source')).toContainText('(1200×800)');
  await page.getByRole('textbox', { name: 'Instruction' }).fill('Paint the walls a warm sage green and keep everything else exactly as it is, '.repeat(4));
  await fitsBoth(page, 'the playground with a prompt');
  await page.getByRole('radio', { name: 'By painted areas (mask and layers)' }).check();
  const canvas = page.getByTestId('mask-canvas');
  await expect(canvas).toBeVisible();
  for (const [colour, y] of [
    ['#FF0000', 0.2],
    ['#0066FF', 0.8],
  ] as const) {
    await page.getByRole('radio', { name: `Colour ${colour}` }).click();
    await paint(page, [0.1, y], [0.6, y]);
    await page.getByRole('button', { name: `Add a layer for ${colour}` }).click({ timeout: 30_000 });
  }
  await expect(page.getByTestId('code-curl')).toContainText("-F 'mask=@mask.png'");
  for (const viewport of [PHONE, LAPTOP]) {
    await resize(page, viewport);
    await expectFitsWidth(page, `the playground with two mask layers at ${viewport.width} px`);
    // The copy button sits above the code, never over it.
    await expectApart(page, '[data-testid="code-curl"]', 'button:has-text("Copy curl")', `the copy button and the code at ${viewport.width} px`);
  }
  await resize(page, PHONE);
  await page.getByRole('radio', { name: 'By instruction (prompt)' }).check();
  await page.getByRole('radiogroup', { name: 'Kind of creation' }).getByRole('radio', { name: 'Upscale', exact: true }).click();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('generation-status')).toHaveText('Succeeded', { timeout: 180_000 });
  await expect(page.getByTestId('result-image')).toBeVisible();
  await fitsBoth(page, 'the playground with a result');

  consoleErrors.expectNone('of the playground');
});

test('signed-out pages and signing in: loaded in dark on the phone, fit both sizes, accessible in both themes, no console error', async ({ browser, demo }) => {
  // A context of its own: signed out, in dark on the phone.
  const visitor = await browser.newContext({ baseURL: demo.baseUrl, storageState: SIGNED_OUT, colorScheme: 'dark', viewport: { width: PHONE.width, height: PHONE.height } });
  const signedOut = await visitor.newPage();
  const visitorErrors = collectConsoleErrors(signedOut);
  await signedOut.goto('/');
  await signedOut.waitForURL('**/sign-in');
  for (const [name, pathname] of [
    ['sign-in', '/sign-in'],
    ['sign-up', '/sign-up'],
    ['reset-password', '/reset-password'],
    ['verify-email', '/verify-email?token=0123456789abcdef'],
  ] as const) {
    await signedOut.goto(pathname);
    await loaded(signedOut);
    await expect(signedOut.locator('html')).toHaveClass(/\bdark\b/);
    await screenshot(signedOut, `${name}-dark`);
    await fitsBoth(signedOut, pathname);
    await scanBoth(signedOut, pathname);
  }
  // A favicon (no failed /favicon.ico load), and no invisible tab stop on the sign-in form.
  const icon = await signedOut.locator('link[rel="icon"]').first().getAttribute('href');
  expect(icon).toBeTruthy();
  const served = await signedOut.request.get(icon!);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toContain('image/svg+xml');
  await signedOut.goto('/sign-in');
  for (const viewport of [PHONE, LAPTOP]) {
    await resize(signedOut, viewport);
    await signedOut.getByRole('tab', { name: 'Password' }).focus();
    await signedOut.keyboard.press('Tab');
    await expect(signedOut.getByRole('textbox', { name: 'E-mail', exact: true }), `the tab after Password at ${viewport.width} px`).toBeFocused();
  }
  // Signing in logs nothing either (no refused session probe on the way).
  await signedOut.goto('/sign-in');
  await signedOut.getByRole('textbox', { name: 'E-mail', exact: true }).fill(demo.email);
  await signedOut.getByRole('textbox', { name: 'Password', exact: true }).fill(demo.password);
  await signedOut.getByRole('button', { name: 'Sign in', exact: true }).click();
  await signedOut.waitForURL(/\/o\/org_[^/]+\/test\/overview/);
  await loaded(signedOut);
  await visitor.close();

  visitorErrors.expectNone('of signed-out pages and signing in');
});

/** One line of text: not wrapped, so no word of it is broken across lines. */
async function expectOneLine(locator: ReturnType<Page['locator']>, what: string): Promise<void> {
  const lines = await locator.evaluate((el) => {
    const lineHeight = parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.5;
    return el.getBoundingClientRect().height / lineHeight;
  });
  expect(lines, `${what} is on one line`).toBeLessThan(1.6);
}

test('the request log and keys on a phone: filters behind one control, requests as cards; on a laptop ids truncate', async ({ page, demo }) => {
  const base = `/o/${demo.organizationId}/test`;
  await longPathRequest(demo);
  const failed = await v1(demo.baseUrl, demo.testKey, `/v1/generations/gen_layout_phone_${test.info().retry}`);
  expect(failed.status).toBe(404);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base}/logs`);
  await loaded(page);
  await expectFitsWidth(page, 'the request log on a phone');
  // The filters wait behind one "Filter" control: the first screen shows requests.
  const filter = page.getByRole('button', { name: /^Filter/ });
  await onScreen(page, filter, 390, 'the Filter control');
  await expect(page.getByRole('combobox', { name: 'Status' })).toBeHidden();
  await expect(page.getByRole('table', { name: 'Requests' })).toBeHidden();
  const cards = page.getByRole('list', { name: 'Requests' });
  await expect(async () => {
    await page.reload();
    await expect(cards.getByRole('button', { name: new RegExp(`gen_layout_phone_${test.info().retry} 404`) })).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 120_000 });
  const card = cards.getByRole('button', { name: new RegExp(`gen_layout_phone_${test.info().retry} 404`) });
  const box = (await card.boundingBox())!;
  expect(box.y + box.height, 'a request card is on the first screen').toBeLessThan(844);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  // Method, path, status and time first.
  const first = card.locator(':scope > span > span').first();
  await expect(first).toContainText('GET');
  await expect(first).toContainText('/v1/generations/');
  await expect(first).toContainText('404');
  await expect(card.locator('time')).toHaveAttribute('title', / UTC$/);
  // Opening the control shows the filters; a filter in force is a chip that removes it.
  await filter.click();
  await expect(filter).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('combobox', { name: 'Status' })).toBeVisible();
  await expectFitsWidth(page, 'the request log filters on a phone');
  await page.goto(`${base}/logs?statusClass=errors&method=GET`);
  await loaded(page);
  await expect(page.getByRole('button', { name: 'Filter (2)' })).toBeVisible();
  const chips = page.getByRole('list', { name: 'Active filters' });
  await expect(chips.getByRole('listitem')).toHaveCount(2);
  await expect(chips.getByRole('listitem').nth(0)).toContainText('Status: Errors');
  await expect(chips.getByRole('listitem').nth(1)).toContainText('Method: GET');
  await chips.getByRole('button', { name: 'Remove filter Method: GET' }).click();
  await page.waitForURL((url) => !url.search.includes('method='));
  await expect(page.getByRole('button', { name: 'Filter (1)' })).toBeVisible();
  await expectFitsWidth(page, 'the request log with filter chips');
  await cards.getByRole('button').first().click();
  await expect(page.getByTestId('request-detail')).toBeVisible();
  await expectFitsWidth(page, 'a request detail on a phone');
  await expectAccessible(page, 'the request log on a phone');
  await page.goto(`${base}/logs`);
  await loaded(page);
  await docScreen(page, 'request-log-390');

  // Keys on a phone: the page fits, the creator is cut on one line rather than broken.
  await page.goto(`${base}/keys`);
  await loaded(page);
  await expectFitsWidth(page, 'the keys on a phone');
  // Each key is a card on a phone (e2e/key-roll.spec.ts checks its actions).
  const creator = page.getByRole('list', { name: 'API keys' }).getByText(/^by /).first();
  await expectOneLine(creator, 'a key creator');
  await expectAccessible(page, 'the keys on a phone');

  // On a laptop: the table, the request id cut with an ellipsis and a copy button, times whole.
  await page.setViewportSize({ width: 1360, height: 850 });
  await page.goto(`${base}/logs?requestId=${failed.requestId}`);
  await loaded(page);
  const row = page.getByRole('table', { name: 'Requests' }).getByRole('row', { name: new RegExp(failed.requestId) });
  const id = row.getByTitle(failed.requestId, { exact: true });
  await expect(id).toBeVisible();
  expect(await id.evaluate((el) => el.scrollWidth > el.clientWidth), 'the request id is cut with an ellipsis').toBe(true);
  await expect(row.getByRole('button', { name: `Copy request id ${failed.requestId}` })).toBeVisible();
  await expectOneLine(row.locator('time'), 'the request time');
  await expectFitsWidth(page, 'the request log on a laptop');
  await page.goto(`${base}/logs`);
  await loaded(page);
  await docScreen(page, 'request-log-1360');
  // A long path is cut on one line, whole on hover.
  await expectOneLine(page.getByRole('table', { name: 'Requests' }).getByTitle(LONG_PATH).first(), 'a long path');
  await page.goto(`${base}/generations`);
  await loaded(page);
  const cost = page.getByRole('table').getByText(/^€\d+\.\d\d$/).first();
  await expectOneLine(cost, 'a cost');
  await expectOneLine(page.getByRole('table').getByText(/^gen_/).first(), 'a generation id');
});
