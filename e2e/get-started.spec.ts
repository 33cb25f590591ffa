/**
 * A new organization's overview leads somewhere: a "Get started" list whose steps tick
 * themselves off from what really happened (a key made, a first call, an event stream opened as
 * `npx @roomtone/sdk listen` does, a live call), with a first-call curl that carries the
 * organization's own test key prefix and the API's real base URL; then recent requests.
 */
import type { Page } from '@playwright/test';
import { docScreen } from './doc-screens';
import { expect, expectAccessible, expectFitsWidth, test, v1 } from './fixtures';

async function step(page: Page, id: string) {
  return page.locator(`[data-step="${id}"]`);
}

/** Reloads the overview until the step is ticked (the request log is written in batches). */
async function expectTicked(page: Page, id: string): Promise<void> {
  await expect(async () => {
    await page.reload();
    await expect(await step(page, id)).toHaveAttribute('data-done', 'true', { timeout: 5_000 });
  }).toPass({ timeout: 120_000 });
}

async function createKey(page: Page, base: string, name: string): Promise<string> {
  await page.goto(`${base}/keys`);
  await page.getByRole('button', { name: 'Create key' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const secret = await dialog.getByTestId('new-key-secret').inputValue();
  await dialog.getByRole('button', { name: 'Done' }).click();
  return secret;
}

test('a new organization’s get-started list ticks itself off from real state', async ({ page, demo }) => {
  await page.setViewportSize({ width: 1360, height: 850 });
  await page.goto(`/o/${demo.organizationId}/test/overview`);
  await page.getByRole('button', { name: /Switch organization/ }).first().click();
  await page.getByRole('menuitem', { name: 'Create organization' }).click();
  const create = page.getByRole('dialog', { name: 'Create an organization' });
  await create.getByRole('textbox', { name: 'Organization name' }).fill(`Get started studio ${test.info().retry}`);
  await create.getByRole('button', { name: 'Create organization' }).click();
  // The new organization's overview (the demo's, where this started, matches the pattern too).
  await page.waitForURL((url) => /^\/o\/org_[^/]+\/test\/overview$/.test(url.pathname) && !url.pathname.includes(demo.organizationId));
  const orgId = /\/o\/(org_[^/]+)\//.exec(page.url())![1]!;
  const test_ = `/o/${orgId}/test`;

  const list = page.getByRole('region', { name: 'Get started' });
  await expect(list).toBeVisible();
  await expect(page.getByTestId('get-started-progress')).toHaveText(/^0 of 6 done/);
  for (const id of ['create_key', 'first_call', 'playground', 'webhook', 'add_credit', 'go_live']) await expect(await step(page, id)).toHaveAttribute('data-done', 'false');
  // The first call goes to the API's real base URL (the one its OpenAPI document names).
  const server = ((await (await fetch(`${demo.baseUrl}/v1/openapi.json`)).json()) as { servers: { url: string }[] }).servers[0]!.url;
  const firstCall = page.getByTestId('first-call');
  await expect(firstCall).toContainText(`curl ${server}/styles`);
  await expect(firstCall).toContainText('ROOMTONE_API_KEY="rt_test_…"');
  await expect(page.getByRole('heading', { name: 'Recent requests' })).toBeVisible();
  await expect(page.getByText('No test requests yet')).toBeVisible();
  await expectAccessible(page, 'a new organization’s overview');
  await docScreen(page, 'overview-1360');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('button', { name: 'Open the console menu' })).toBeVisible();
  await expectFitsWidth(page, 'a new organization’s overview on a phone');
  await docScreen(page, 'overview-390');
  await page.setViewportSize({ width: 1360, height: 850 });

  // 1. A key: ticked, and the curl now names its prefix.
  const secret = await createKey(page, test_, 'first key');
  await page.goto(`${test_}/overview`);
  await expect(await step(page, 'create_key')).toHaveAttribute('data-done', 'true');
  const shown = /ROOMTONE_API_KEY="(rt_test_[^"…]+)…"/.exec((await firstCall.textContent()) ?? '')?.[1];
  expect(shown, 'the curl carries the key prefix').toBeTruthy();
  expect(secret.startsWith(shown!)).toBe(true);
  await expect(await step(page, 'first_call')).toHaveAttribute('data-done', 'false');

  // 2. The first call, as the curl makes it.
  expect((await v1(demo.baseUrl, secret, '/v1/styles')).status).toBe(200);
  await expectTicked(page, 'first_call');
  await expect(page.getByRole('list', { name: 'Recent requests' })).toContainText('/v1/styles');

  // 3. An event stream, as `npx @roomtone/sdk listen` opens it.
  const stream = new AbortController();
  const res = await fetch(`${demo.baseUrl}/v1/events/stream`, { headers: { authorization: `Bearer ${secret}` }, signal: stream.signal });
  expect(res.status).toBe(200);
  await expectTicked(page, 'webhook');
  stream.abort();

  // 4. Live: a live key and a live request.
  const live = await createKey(page, `/o/${orgId}/live`, 'live key');
  expect(live).toMatch(/^rt_live_/);
  expect((await v1(demo.baseUrl, live, '/v1/styles')).status).toBe(200);
  await page.goto(`${test_}/overview`);
  await expectTicked(page, 'go_live');
  await expect(page.getByTestId('get-started-progress')).toHaveText(/^4 of 6 done/);
  // Steps still to do keep their way forward; done ones say so to a screen reader.
  await expect(await step(page, 'playground')).toContainText('Open the playground');
  await expect(await step(page, 'create_key')).toContainText('(done)');
  await expect(page.getByRole('list', { name: 'Recent requests' })).toBeVisible();
});
