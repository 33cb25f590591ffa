/**
 * The webhook screens in Chromium against `npm start`'s production server: an endpoint
 * added in the console receives a real signed delivery of a generation at an HTTPS receiver this
 * test runs on 127.0.0.1:443 (the server trusts the run's CA and admits loopback under
 * DEV_ALLOW_LOOPBACK_URLS, as the integration tests do); every request is verified with the
 * official `standardwebhooks` package. The delivery shows in the log, Resend and Send a test
 * reach the receiver, failures are filtered, rotation signs with both secrets, and a developer
 * sees no webhook screens. Axe scan and screenshots of the new screens.
 */
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import type { Page } from '@playwright/test';
import { backgroundUpscale, expect, expectAccessible, inviteDeveloper, screenshot, test } from './fixtures';
import type { E2EState } from './global-setup';
import { listenOn443 } from '../test/port-443';

interface Received {
  headers: Record<string, string>;
  body: string;
}

/**
 * An HTTPS receiver on 127.0.0.1:443 answering `status` (changeable), recording every request.
 * Other tests running at the same time create test-mode generations too, whose events reach this
 * endpoint as well: `next` waits for the first request not taken yet that matches.
 */
async function startReceiver(tls: E2EState['receiverTls']) {
  const received: Received[] = [];
  const taken = new Set<number>();
  let status = 200;
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'thanks' : 'receiver broken');
    });
  });
  await listenOn443(server, '127.0.0.1');
  return {
    received,
    answer: (s: number) => (status = s),
    async next(what: string, match: (event: Event) => boolean): Promise<Received> {
      let found = -1;
      await expect
        .poll(
          () => {
            found = received.findIndex((r, i) => !taken.has(i) && match(JSON.parse(r.body) as Event));
            return found;
          },
          { timeout: 60_000, message: `a delivery of ${what}` },
        )
        .toBeGreaterThanOrEqual(0);
      taken.add(found);
      return received[found]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Event = { id: string; type: string; livemode: boolean; data: { object: { id: string; status: string } } };
/** Send a test's sample events carry fictitious generation ids gen_test…. */
const isTestEvent = (e: Event) => e.data.object.id.startsWith('gen_test');
const verify = (secret: string, r: Received) => new Webhook(secret).verify(r.body, r.headers) as Event;

async function scan(page: Page, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveClass(new RegExp(theme));
    await expectAccessible(page, `${name} (${theme})`, theme === 'light' ? 'all' : 'colours');
    await screenshot(page, `${name}-${theme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * A retry starts from the empty list its first attempt found: the endpoints a failed attempt
 * left are deleted through the console, as a member would.
 */
async function deleteLeftEndpoints(page: Page, organizationId: string) {
  const list = `/o/${organizationId}/test/webhooks`;
  await page.goto(list);
  const endpoints = page.getByRole('table', { name: 'Webhook endpoints' }).getByRole('link');
  for (;;) {
    await expect(page.getByText('No test endpoints yet').or(endpoints.first())).toBeVisible();
    if ((await endpoints.count()) === 0) return;
    await endpoints.first().click();
    await expect(page.getByRole('heading', { name: 'Webhook endpoint', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete endpoint' }).click();
    await page.waitForURL(`**${list}`);
  }
}

test('an endpoint added in the console receives a signed delivery; log, resend, send a test, failures, rotation, disable, delete', async ({ page, demo }) => {
  test.setTimeout(900_000); // many steps, each a round trip on a shared 2-core machine
  if (test.info().retry > 0) await deleteLeftEndpoints(page, demo.organizationId);
  const receiver = await startReceiver(demo.receiverTls);
  try {
    await page.goto(`/o/${demo.organizationId}/test/overview`);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
    await expect(page.getByText('No test endpoints yet')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Verify deliveries in your receiver' }).or(page.locator('section', { hasText: 'Verify deliveries' }))).toContainText('standardwebhooks');
    await scan(page, 'webhooks-empty');

    // Add: a refused URL is shown next to its field, then the real one.
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog');
    await scan(page, 'webhooks-add');
    await dialog.getByRole('textbox', { name: 'Endpoint URL' }).fill('http://127.0.0.1/hooks/roomtone');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Endpoint URL' })).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByRole('alert').filter({ hasText: /https/i })).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Endpoint URL' }).fill('https://127.0.0.1/hooks/roomtone');
    await dialog.getByRole('checkbox', { name: 'generation.canceled' }).click(); // not followed
    await dialog.getByRole('textbox', { name: 'Description (optional)' }).fill('e2e receiver');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(dialog.getByRole('alert')).toContainText('only time the signing secret is shown');
    const secret = await dialog.getByTestId('new-signing-secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row').filter({ hasText: 'https://127.0.0.1/hooks/roomtone' });
    await expect(row).toContainText('Active');
    await expect(row).toContainText('generation.succeeded');
    await expect(row).not.toContainText('generation.canceled');
    await expect(row.getByTestId('success-rate')).toHaveText('No attempts');

    // A real event: a background generation's result, signed.
    const generationId = await backgroundUpscale(demo.baseUrl, demo.testKey);
    const first = await receiver.next('the generation', (e) => e.data.object.id === generationId);
    const event = verify(secret, first);
    expect(event).toMatchObject({ type: 'generation.succeeded', livemode: false, data: { object: { id: generationId, status: 'succeeded' } } });
    expect(first.headers['webhook-id']).toBe(event.id);

    await page.reload();
    await expect(row.getByTestId('success-rate')).toHaveText(/^100 % \(\d+ of \d+\)$/);
    await row.getByRole('link', { name: 'https://127.0.0.1/hooks/roomtone' }).click();
    await expect(page.getByRole('heading', { name: 'Webhook endpoint', level: 1 })).toBeVisible();
    const log = page.getByRole('table', { name: 'Deliveries' });
    const eventRow = log.getByRole('row').filter({ hasText: event.id });
    await expect(eventRow).toHaveCount(1);
    await expect(eventRow).toContainText('generation.succeeded');
    await expect(eventRow.getByTestId('delivery-status')).toHaveText('succeeded');
    await expect(eventRow).toContainText('HTTP 200');
    // Its attempts in the detail panel: status, duration, the receiver's answer.
    await eventRow.click();
    const panel = page.getByRole('dialog');
    await expect(panel.getByTestId('attempt')).toHaveCount(1);
    await expect(panel.getByTestId('attempt')).toContainText('HTTP 200');
    await expect(panel.getByTestId('attempt')).toContainText('thanks');
    // The payload the delivery sends: the event, its generation inside.
    const payload = panel.getByTestId('delivery-payload');
    await expect(payload).toContainText(`"id": "${event.id}"`);
    await expect(payload).toContainText(`"type": "generation.succeeded"`);
    await expect(payload).toContainText(generationId);
    await scan(page, 'webhook-delivery');
    await page.keyboard.press('Escape');

    // Resend: the same event (same webhook-id) again, verified; a toast says so.
    await eventRow.getByRole('button', { name: /^Resend/ }).click();
    await expect(page.getByText('Delivery resent.')).toBeVisible();
    const resent = await receiver.next('the resend', (e) => e.id === event.id);
    expect(verify(secret, resent).id).toBe(event.id);
    // (By the kind cell: every row's Resend button also says "resend".)
    await expect(log.getByTestId('delivery-kind').filter({ hasText: /^resend$/ })).toHaveCount(1);

    // Send a test of a followed type.
    await page.getByRole('combobox', { name: 'Event type' }).click();
    await page.getByRole('option', { name: 'generation.failed' }).click();
    await page.getByRole('button', { name: 'Send test event' }).click();
    const tested = verify(secret, await receiver.next('the test event', isTestEvent));
    expect(tested.type).toBe('generation.failed');
    expect(tested.data.object.id).toMatch(/^gen_test/);
    await expect(log.getByRole('row').filter({ hasText: tested.id })).toContainText('test');

    // A failing receiver: the failed filter shows that delivery only.
    receiver.answer(500);
    await page.getByRole('button', { name: 'Send test event' }).click();
    const failedEvent = verify(secret, await receiver.next('the failing test event', isTestEvent));
    await expect(log.getByRole('row').filter({ hasText: failedEvent.id }).getByTestId('delivery-status')).toHaveText('failed');
    await page.getByRole('checkbox', { name: 'Failed only' }).click();
    await expect(log.getByRole('row').filter({ hasText: failedEvent.id })).toHaveCount(1);
    await expect(log.getByRole('row').filter({ hasText: event.id })).toHaveCount(0);
    await log.getByRole('row').filter({ hasText: failedEvent.id }).click();
    await expect(page.getByRole('dialog').getByTestId('attempt')).toContainText('receiver broken');
    await page.keyboard.press('Escape');
    await page.getByRole('checkbox', { name: 'Failed only' }).click();
    receiver.answer(200);
    await scan(page, 'webhook-endpoint');

    // Edit: a refused URL is named on its field; description and events change, the URL stays.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Edit endpoint' });
    await expect(edit.getByRole('textbox', { name: 'Endpoint URL' })).toHaveValue('https://127.0.0.1/hooks/roomtone');
    await edit.getByRole('textbox', { name: 'Endpoint URL' }).fill('http://127.0.0.1/hooks/roomtone');
    await edit.getByRole('button', { name: 'Save endpoint' }).click();
    await expect(edit.getByRole('alert')).toContainText(/https/i);
    await edit.getByRole('textbox', { name: 'Endpoint URL' }).fill('https://127.0.0.1/hooks/roomtone');
    await edit.getByRole('textbox', { name: 'Description (optional)' }).fill('edited in e2e');
    // The dialog starts from the endpoint's events: canceled was not followed at creation.
    await expect(edit.getByRole('checkbox', { name: 'generation.canceled' })).not.toBeChecked();
    await expect(edit.getByRole('checkbox', { name: 'generation.failed' })).toBeChecked();
    await edit.getByRole('checkbox', { name: 'generation.canceled' }).click();
    await edit.getByRole('checkbox', { name: 'generation.failed' }).click();
    await expectAccessible(page, 'edit endpoint dialog');
    await edit.getByRole('button', { name: 'Save endpoint' }).click();
    await expect(page.getByText('Endpoint saved.', { exact: false })).toBeVisible();
    await expect(page.getByText('edited in e2e')).toBeVisible();
    await expect(page.locator('dd').filter({ hasText: 'generation.succeeded' })).toHaveText('generation.succeeded, generation.canceled');
    // The test-event type chosen above (failed) is no longer followed: the first followed one is offered.
    await expect(page.getByRole('combobox', { name: 'Event type' })).toContainText('generation.succeeded');

    // The verification snippet copies with its button.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy Node.js receiver' }).click();
    await expect(page.getByText('Node.js receiver copied')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("import { Webhook } from 'standardwebhooks';");

    // Rotate: a new secret shown once; deliveries now carry both signatures.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotateDialog = page.getByRole('dialog');
    await expect(rotateDialog).toContainText('For 24 hours');
    await rotateDialog.getByRole('button', { name: 'Rotate secret' }).click();
    const newSecret = await rotateDialog.getByTestId('rotated-signing-secret').inputValue();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    await rotateDialog.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByText(/carry the new and the previous signature until/)).toBeVisible();
    await page.getByRole('button', { name: 'Send test event' }).click();
    const afterRotation = await receiver.next('a test event after the rotation', isTestEvent);
    expect(afterRotation.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(verify(newSecret, afterRotation).id).toBe(verify(secret, afterRotation).id);

    // Disable (with its reason), enable.
    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Disable endpoint' }).click();
    await expect(page.getByTestId('endpoint-status')).toContainText('Disabled');
    await expect(page.getByTestId('endpoint-status')).toContainText('disabled by a member');
    await expect(page.getByRole('button', { name: 'Send test event' })).toBeDisabled();
    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await expect(page.getByTestId('endpoint-status')).toContainText('Active');

    // Delete with confirmation: back to an empty list.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete endpoint' }).click();
    await page.waitForURL(`**/o/${demo.organizationId}/test/webhooks`);
    await expect(page.getByText('No test endpoints yet')).toBeVisible();
    // Of this test's own sends: the event and its resend, three test events; nothing else of ours.
    const events = receiver.received.map((r) => JSON.parse(r.body) as Event);
    expect(events.filter((e) => e.id === event.id)).toHaveLength(2);
    expect(events.filter(isTestEvent)).toHaveLength(3);
  } finally {
    await receiver.close();
  }
});

test('a URL whose host does not resolve is accepted; its deliveries show "failed, retrying at …" in the log', async ({ page, demo }) => {
  await page.goto(`/o/${demo.organizationId}/test/webhooks`);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog');
  // No DNS answers this name: declaring it does not ask (delivery does, every time).
  // A path of its own: a retry of this test must not find the endpoint of the failed attempt.
  const url = `https://hooks.nowhere-roomtone-e2e.example/roomtone-${test.info().retry}`;
  await dialog.getByRole('textbox', { name: 'Endpoint URL' }).fill(url);
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(dialog.getByTestId('new-signing-secret')).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('link', { name: url, exact: true }).click();
  // The endpoint's own screen, not the list (both have an h1): reloading before the client
  // navigation lands would cancel it and leave the test on the list.
  await expect(page.getByRole('heading', { name: 'Webhook endpoint', level: 1 })).toBeVisible();

  // A real event: its first attempt fails on the name, and the next is planned.
  await backgroundUpscale(demo.baseUrl, demo.testKey);
  const status = page.getByRole('table', { name: 'Deliveries' }).getByTestId('delivery-status').first();
  await expect(async () => {
    await page.reload();
    await expect(status).toHaveText(/^failed, retrying at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/, { timeout: 5_000 });
  }).toPass({ timeout: 120_000 });
  await page.getByRole('table', { name: 'Deliveries' }).getByRole('row').nth(1).click();
  await expect(page.getByRole('dialog').getByTestId('attempt')).toContainText('dns');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete endpoint' }).click();
  await page.waitForURL(`**/o/${demo.organizationId}/test/webhooks`);
});

test('a developer sees no webhook screens: no nav entry, the route refuses, the procedures answer 403', async ({ page, browser, demo }) => {
  // An address of this attempt: a retry's invitation to its failed attempt's member would be refused.
  const { dev, close } = await inviteDeveloper(page, browser, demo, `webhook-dev-${test.info().retry}@example.com`, 'Webb Developer');
  try {
    await expect(dev.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'API keys' })).toBeVisible();
    await expect(dev.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' })).toHaveCount(0);
    await dev.goto(`/o/${demo.organizationId}/test/webhooks`);
    await expect(dev.getByRole('heading', { name: 'Not available' })).toBeVisible();
    await expect(dev.getByRole('button', { name: 'Add endpoint' })).toHaveCount(0);
    await dev.goto(`/o/${demo.organizationId}/test/webhooks/we_anything`);
    await expect(dev.getByRole('heading', { name: 'Not available' })).toBeVisible();
    const input = encodeURIComponent(JSON.stringify({ organizationId: demo.organizationId, mode: 'test' }));
    const res = await dev.request.get(`/api/trpc/webhooks.list?input=${input}`);
    expect(res.status()).toBe(403);
    expect(((await res.json()) as { error: { data: { apiError: { code: string } } } }).error.data.apiError.code).toBe('permission_denied');
  } finally {
    await close();
  }
});
