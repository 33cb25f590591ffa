/**
 * Accounts you can trust, in Chromium against `npm start`'s production server: the sign-in page
 * never leaves the console's origin whatever `callbackUrl` says (the open-redirect corpus), and
 * invitations are listed, revoked by keyboard, dead once revoked, and accepted through the mailed
 * link (the older /invite/<token> address leads to the same page). New screens at 390 px.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, SIGNED_OUT, test } from './fixtures';
import type { E2EState } from './global-setup';
import { lastMail, linkIn } from './mailbox';

/** As they appear in a link's query string (percent-encoded once). */
const HOSTILE_QUERIES = [
  '%2F%09%2Fevil.example%2Fphish', // the reported one: a tab the browser strips, leaving //evil.example
  '%2F%0A%2Fevil.example%2Fphish',
  '%2F%2Fevil.example%2Fphish',
  '%2F%5Cevil.example%2Fphish',
  '%5C%5Cevil.example%2Fphish',
  '%2F.%2F%2Fevil.example%2Fphish',
  '%2Fo%2F..%2F..%2F%2Fevil.example%2Fphish',
  'https%3A%2F%2Fevil.example%2Fphish',
  'https%3Aevil.example%2Fphish',
  'javascript%3Aalert(document.domain)',
  'http%3A%2F%2F127.0.0.1%3A3100%40evil.example%2Fphish',
];

/**
 * Signs the demo owner in on `page` through `/sign-in?callbackUrl=<query>`, from a signed-out
 * state (the context's cookies cleared first): one context and page serve the whole corpus, so
 * each case costs a sign-in, not a new browser context with a cold cache.
 */
async function signInVia(page: Page, demo: E2EState, query: string): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`/sign-in?callbackUrl=${query}`);
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(demo.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(demo.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('after sign-in, callbackUrl leads only to a page of the console (the bypass corpus)', async ({ browser, demo }) => {
  const origin = new URL(demo.baseUrl).origin;
  const context = await browser.newContext({ baseURL: demo.baseUrl, storageState: SIGNED_OUT });
  const page = await context.newPage();
  // Every host the page requested or navigated to, per case.
  const hosts = new Set<string>();
  page.on('request', (request) => hosts.add(new URL(request.url()).hostname));
  page.on('framenavigated', (frame) => hosts.add(new URL(frame.url()).hostname));
  for (const query of HOSTILE_QUERIES) {
    hosts.clear();
    await signInVia(page, demo, query);
    // Refused: '/', which sends a member to their organization's overview.
    await page.waitForURL(/\/o\/org_[^/]+\/test\/overview/);
    expect(new URL(page.url()).origin, query).toBe(origin);
    expect([...hosts].filter((h) => h.includes('evil')), query).toEqual([]);
  }
  // A page of the console is where sign-in returns.
  await signInVia(page, demo, encodeURIComponent(`/o/${demo.organizationId}/test/keys?from=sign-in`));
  await page.waitForURL(`**/o/${demo.organizationId}/test/keys?from=sign-in`);
  await context.close();
});

test('invitations: listed, revoked by keyboard (its link is dead), accepted through the mailed link', async ({ page, browser, demo }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/o/${demo.organizationId}/test/members`); // signed in already (storageState)

  const stamp = Date.now();
  const revoked = `revoked-${stamp}@example.com`;
  const welcome = `welcome-${stamp}@example.com`;
  for (const email of [revoked, welcome]) {
    await page.getByRole('button', { name: 'Invite member' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await expect(dialog).toHaveCount(0);
  }
  const pending = page.getByRole('region', { name: 'Pending invitations' });
  await expect(pending.getByRole('row').filter({ hasText: revoked })).toBeVisible();
  await expect(pending.getByRole('row').filter({ hasText: welcome })).toBeVisible();
  // The section fits a phone: its table scrolls inside its own frame.
  const box = await pending.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await expectAccessible(page, 'members with pending invitations (390 px)');
  await screenshot(page, 'members-invitations-phone');

  // Revoke by keyboard: the button, then the dialog (Cancel has the focus; Tab to the action).
  const revokedLink = linkIn((await lastMail(demo, revoked, 'Invitation to join')).body, '/invitations/');
  await pending.getByRole('button', { name: `Revoke the invitation of ${revoked}` }).focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('alertdialog');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(confirm.getByRole('button', { name: 'Revoke invitation' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(pending.getByRole('row').filter({ hasText: revoked })).toHaveCount(0);
  await expect(pending.getByRole('row').filter({ hasText: welcome })).toBeVisible();

  const stranger = await browser.newContext({ baseURL: demo.baseUrl, storageState: SIGNED_OUT });
  const visitor = await stranger.newPage();
  await visitor.goto(revokedLink);
  await expect(visitor.getByText('unknown, was replaced by a newer one or was revoked')).toBeVisible();

  // The other invitation, opened at the older /invite/ address: the same page, then sign-up.
  const welcomeLink = linkIn((await lastMail(demo, welcome, 'Invitation to join')).body, '/invitations/');
  const token = welcomeLink.split('/invitations/')[1]!;
  await visitor.goto(`/invite/${token}`);
  await visitor.waitForURL(`**/invitations/${token}`);
  await expect(visitor.getByRole('heading', { name: 'Join Demo organization' })).toBeVisible();
  await visitor.getByRole('textbox', { name: 'Password', exact: true }).fill('correct horse battery staple');
  await visitor.getByRole('button', { name: 'Create account and join' }).click();
  await visitor.waitForURL(`**/o/${demo.organizationId}/test/overview`);
  await stranger.close();

  await page.reload();
  // (Other tests may have an invitation of their own pending at this moment.)
  await expect(page.getByRole('region', { name: 'Pending invitations' }).getByRole('row').filter({ hasText: welcome })).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Members' }).getByRole('row').filter({ hasText: welcome })).toBeVisible();
});
