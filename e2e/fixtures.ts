import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test as base, expect, type Browser, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import sharp from 'sharp';
import type { E2EState } from './global-setup';
import { lastMail, linkIn } from './mailbox';

export { expect };

export function state(): E2EState {
  const file = process.env.E2E_STATE;
  if (!file) throw new Error('E2E_STATE is not set: run through playwright (e2e/global-setup.ts)');
  return JSON.parse(fs.readFileSync(file, 'utf8')) as E2EState;
}

/** A context without any session: for the tests of signing in and of signed-out pages. */
export const SIGNED_OUT = { cookies: [], origins: [] };

/**
 * Every test's `page` starts signed in as the demo owner: each worker signs in once (through the
 * sign-in page, as a person does) and its tests reuse that session (Playwright's storageState).
 * Tests of signing in use `test.use({ storageState: SIGNED_OUT })`; other people sign in in
 * contexts of their own. No test signs the demo owner out or changes their password.
 */
export const test = base.extend<{ demo: E2EState }, { ownerStorageState: string }>({
  demo: async ({}, provide) => provide(state()),
  ownerStorageState: [
    async ({ browser }, provide, workerInfo) => {
      const demo = state();
      const file = path.join(demo.dataDir, `owner-session-${workerInfo.workerIndex}.json`);
      const context = await browser.newContext({ baseURL: demo.baseUrl, storageState: SIGNED_OUT });
      await signInWithPassword(await context.newPage(), demo.email, demo.password);
      await context.storageState({ path: file });
      await context.close();
      await provide(file);
    },
    { scope: 'worker' },
  ],
  storageState: async ({ ownerStorageState }, provide) => provide(ownerStorageState),
});

/** The demo owner's console at a screen (the page is signed in already). */
export async function openScreen(page: Page, demo: E2EState, screen: string, mode: 'test' | 'live' = 'test'): Promise<void> {
  await page.goto(`/o/${demo.organizationId}/${mode}/${screen}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

/**
 * Console errors and uncaught exceptions of a page, collected from now on (React's hydration
 * errors, failed loads such as a 401 or a missing favicon). `expectNone` fails with the list.
 */
export function collectConsoleErrors(page: Page): { errors: string[]; expectNone: (context: string) => void } {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}${message.location().url ? ` (${message.location().url})` : ''}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: uncaught ${error.name}: ${error.message}`));
  return {
    errors,
    expectNone: (context) => {
      expect(errors, `console errors ${context}:\n${errors.join('\n')}`).toEqual([]);
    },
  };
}

/**
 * The page is no wider than the window: `document.documentElement.scrollWidth` ≤ the viewport.
 * The message names the elements that reach past the right edge.
 */
export async function expectFitsWidth(page: Page, context: string): Promise<void> {
  const result = await page.evaluate(() => {
    const width = window.innerWidth;
    const culprits: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const rect = el.getBoundingClientRect();
      if (rect.right > width + 0.5 && rect.width > 0) {
        // Only the outermost offenders: skip those whose parent already reaches past the edge.
        const parent = el.parentElement?.getBoundingClientRect();
        if (parent && parent.right > width + 0.5) continue;
        const id = el.id ? `#${el.id}` : '';
        const test = el.getAttribute('data-testid') ? `[data-testid=${el.getAttribute('data-testid')}]` : '';
        culprits.push(`${el.tagName.toLowerCase()}${id}${test}.${String(el.className).slice(0, 80)} right=${Math.round(rect.right)}`);
      } else if (
        rect.left + el.scrollWidth > width + 0.5 &&
        el.scrollWidth > el.clientWidth &&
        el.clientWidth > 0 &&
        getComputedStyle(el).overflowX === 'visible' &&
        !Array.from(el.children).some((child) => child.getBoundingClientRect().left + child.scrollWidth > width + 0.5)
      ) {
        // Text running out of a box that itself fits (a word that does not wrap): name the
        // innermost such box.
        const test = el.getAttribute('data-testid') ? `[data-testid=${el.getAttribute('data-testid')}]` : '';
        culprits.push(`${el.tagName.toLowerCase()}${test}.${String(el.className).slice(0, 80)} text to ${Math.round(rect.left + el.scrollWidth)}: "${(el.textContent ?? '').slice(0, 60)}"`);
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, width, culprits: culprits.slice(0, 8) };
  });
  expect.soft(result.scrollWidth, `${context}: the page is ${result.scrollWidth} px wide in a ${result.width} px window\n${result.culprits.join('\n')}`).toBeLessThanOrEqual(result.width);
}

export async function signInWithPassword(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/o\/org_[^/]+\/test\/overview/);
}

/** A /v1 call from the test, as a customer's code would make it. */
export async function v1(baseUrl: string, key: string, pathname: string, init: RequestInit = {}): Promise<{ status: number; requestId: string; body: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}${pathname}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } });
  const text = await res.text();
  return { status: res.status, requestId: res.headers.get('request-id') ?? '', body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/**
 * The axe rules a theme can change: a theme swaps colours only (CSS variables under the `dark`
 * class; no component renders differently by theme), so a page already scanned whole in one
 * theme is scanned for these in the other.
 */
export const THEME_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * axe-core's minified build, the one @axe-core/playwright depends on: the builder injects its
 * source into the page for every scan, and its default, unminified build is 1.5 MB to send and
 * parse each time (the minified one about a third of it).
 */
const AXE_SOURCE = (() => {
  const require = createRequire(import.meta.url);
  const builder = path.dirname(require.resolve('@axe-core/playwright'));
  return fs.readFileSync(require.resolve('axe-core/axe.min.js', { paths: [builder] }), 'utf8');
})();

/**
 * No serious or critical accessibility violation on the page as it is now: every WCAG 2.1 A/AA
 * rule, or with `scope: 'colours'` the THEME_RULES (the same page in its other theme).
 */
export async function expectAccessible(page: Page, context: string, scope: 'all' | 'colours' = 'all'): Promise<void> {
  // A toast fading in or out is half transparent: its contrast is measured once it has settled
  // (CI saw a leaving error toast measured at 2.2:1 in the dark theme).
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-sonner-toast]')].every((toast) => toast.getAttribute('data-removed') !== 'true' && getComputedStyle(toast).opacity === '1'),
  );
  // After a client-side navigation the page's <title> comes with its streamed metadata, a moment
  // after the content (CI once scanned the account screen in between: document-title). A page
  // that never gets a title still fails, here, after the expect timeout.
  await expect.poll(() => page.title(), { message: `${context}: the page has a <title>` }).not.toBe('');
  // axe.run() in the page itself ("legacy" mode): the default mode runs each frame's part, then
  // opens a blank page, injects axe again and merges the parts there, a new page per scan for
  // what only cross-origin frames need. The console has none: a page that gets one fails here.
  const origin = new URL(page.url()).origin;
  const foreign = page.frames().filter((frame) => frame !== page.mainFrame() && !['about:blank', ''].includes(frame.url()) && new URL(frame.url()).origin !== origin);
  expect(foreign.map((frame) => frame.url()), `${context}: cross-origin frames, which a same-origin scan would skip`).toEqual([]);
  // Only the violations are read: axe need not collect every passing node.
  const builder = new AxeBuilder({ page, axeSource: AXE_SOURCE }).setLegacyMode(true).options({ resultTypes: ['violations'] });
  const results = await (scope === 'colours' ? builder.withRules(THEME_RULES) : builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join('\n  ')}`).join('\n');
  expect(bad, `${context}:\n${summary}`).toEqual([]);
}

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, 'screenshots');

/**
 * A full-page screenshot into e2e/screenshots/ for a person to look at, with E2E_SCREENSHOTS=1
 * (`E2E_SCREENSHOTS=1 npm run test:e2e`). Off by default: nothing reads them, and each is a
 * full-page render and PNG encoding in the browser (measured: about 6 % of the CPU of the
 * every-screen checks).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.E2E_SCREENSHOTS !== '1') return;
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/**
 * The owner (signed in on `page`) invites `email` with the default role (developer), the invitee
 * finds the invitation in their mailbox (e2e/mailbox.ts) and signs up through it in a new
 * context. Returns the invitee's page, signed in on the organization's overview.
 */
export async function inviteDeveloper(
  page: Page,
  browser: Browser,
  demo: E2EState,
  email: string,
  name: string,
  org: { id: string; name: string } = { id: demo.organizationId, name: 'Demo organization' },
): Promise<{ dev: Page; close: () => Promise<void> }> {
  await page.goto(`/o/${org.id}/test/members`);
  await page.getByRole('button', { name: 'Invite member' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  // Where the invitation goes on this installation (no SMTP in the e2e).
  await expect(dialog.getByTestId('mail-destination')).toContainText('This installation has no SMTP server');
  await expect(dialog.getByRole('combobox', { name: 'Role' })).toHaveText('developer');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('region', { name: 'Pending invitations' }).or(page.locator('section', { hasText: 'Pending invitations' }))).toContainText(email);

  const link = linkIn((await lastMail(demo, email, 'Invitation to join')).body, '/invitations/');
  expect(link).toMatch(/\/invitations\/[0-9A-Za-z]+$/);

  const devContext = await browser.newContext({ baseURL: demo.baseUrl, storageState: SIGNED_OUT });
  const dev = await devContext.newPage();
  await dev.goto(link!);
  await expect(dev.getByRole('heading', { name: `Join ${org.name}` })).toBeVisible();
  await dev.getByLabel('Your name').fill(name);
  await dev.getByRole('textbox', { name: 'Password', exact: true }).fill('correct horse battery staple');
  await dev.getByRole('button', { name: 'Create account and join' }).click();
  await dev.waitForURL(`**/o/${org.id}/test/overview`);
  return { dev, close: () => devContext.close() };
}

/**
 * A new account with an organization of its own (open sign-up), its address confirmed with the
 * link from the mailbox and its password; the page ends on its overview. Returns the organization id.
 */
export async function signUpOwner(page: Page, demo: E2EState, email: string, password: string, organizationName: string): Promise<string> {
  await page.goto('/sign-up');
  await page.getByLabel('Your name').fill('Owner of ' + organizationName);
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByLabel('Organization name').fill(organizationName);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Check your e-mail', level: 1 })).toBeVisible();
  await page.goto(linkIn((await lastMail(demo, email, 'Confirm your e-mail address')).body, '/verify-email?'));
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Confirm and sign in' }).click();
  await page.waitForURL(/\/o\/org_[^/]+\/test\/overview/);
  return /\/o\/(org_[^/]+)\//.exec(page.url())![1]!;
}

/** The page fits a 390 px wide phone: nothing wider than the viewport. */
export async function expectFitsPhone(page: Page, context: string): Promise<void> {
  const { width, wide } = await page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    // What sticks out, to say where to look.
    wide: [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > 391 && getComputedStyle(el).position !== 'fixed')
      .filter((el) => !el.parentElement?.closest('.overflow-x-auto') || getComputedStyle(el).position === 'absolute')
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)} (${Math.round(el.getBoundingClientRect().right)}px)`),
  }));
  expect(width, `${context} is ${width}px wide on a 390px phone: ${wide.join('; ')}`).toBeLessThanOrEqual(390);
}

/** A small room-coloured JPEG. */
export async function roomJpeg(): Promise<Blob> {
  const buffer = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 180, g: 160, b: 140 } } })
    .jpeg()
    .toBuffer();
  return new Blob([new Uint8Array(buffer)], { type: 'image/jpeg' });
}

/** A background upscale created with `key` (202), as a customer's code would; its id. */
export async function backgroundUpscale(baseUrl: string, key: string): Promise<string> {
  const form = new FormData();
  form.append('image', await roomJpeg(), 'room.jpg');
  form.append('scale', 'x2');
  form.append('background', 'true');
  const res = await v1(baseUrl, key, '/v1/upscales', { method: 'POST', body: form });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.id as string;
}

/**
 * Holds the engine runs of an organization until `release` (the server's BUILTIN_ENGINE_HOLDS_DIR,
 * an hour per run): the runs that have started keep their worker slots, so generations created
 * after the slots are full wait in the queue, cancelable, for as long as the test needs.
 */
export function holdEngineRuns(demo: E2EState, organizationId: string): { release: () => void } {
  const file = path.join(demo.engineHoldDir, organizationId);
  fs.writeFileSync(file, String(3_600_000));
  return { release: () => fs.rmSync(file, { force: true }) };
}

/** An element lies inside the window's width. */
export async function expectInsideWindow(page: Page, locator: ReturnType<Page['locator']>, context: string): Promise<void> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box, context).not.toBeNull();
  expect(box!.x, context).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, context).toBeLessThanOrEqual(width + 0.5);
}
