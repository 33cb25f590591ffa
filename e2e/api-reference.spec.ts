/**
 * /docs, the API reference rendered from GET /v1/openapi.json: it loads without any request
 * to another origin (served offline by the app), the search finds a route, a route shows its
 * permission, error codes and SDK sample, its example has the real answer's shape, it passes
 * axe and fits a 390 px phone, and the console's sidebar links to it.
 */
import { backgroundUpscale, expect, expectAccessible, screenshot, test, v1 } from './fixtures';
import type { Page } from '@playwright/test';

/** The keys of an object and of its nested objects (array items by their first element), as paths. */
function shape(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.length > 0 ? shape(value[0], `${prefix}[]`) : [`${prefix}[]`];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    // input and metadata are free-form: their own keys differ by generation.
    return key === 'input' || key === 'metadata' ? [path] : [path, ...shape(inner, path)];
  });
}

/** Records every request of `page` that leaves the app's origin, from now on. */
function recordExternal(page: Page, origin: string): string[] {
  const external: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== origin) external.push(request.url());
  });
  return external;
}

// One visit of the reference carries the sidebar link, the search and the example: the page is
// a large bundle rendering the whole OpenAPI document, and each load of it costs seconds of CPU.
test('the console sidebar links to the reference; it loads from the app alone, its search finds a route, and an example has the real answer\'s shape', async ({ page, demo }) => {
  // A real generation, read as a customer reads it (it runs while the page loads).
  const id = await backgroundUpscale(demo.baseUrl, demo.testKey);
  await page.goto(`/o/${demo.organizationId}/test/overview`); // signed in already (storageState)
  const external = recordExternal(page, new URL(demo.baseUrl).origin);
  await page.getByTestId('api-reference-link').click();
  await page.waitForURL('**/docs');
  await expect(page.getByRole('heading', { name: 'Roomtone API', level: 1 })).toBeVisible();
  await expectAccessible(page, 'API reference');
  await page.getByRole('button', { name: /Open Search/ }).first().click();
  await page.keyboard.type('cancel');
  await page.getByRole('option', { name: /Cancel a generation that has not started/ }).click();
  const cancel = page.getByRole('heading', { name: 'Cancel a generation that has not started' });
  await expect(cancel).toBeVisible();
  await expect(page.getByText('Permission:').first()).toBeVisible();
  await expect(page.getByText('generation_not_cancelable').first()).toBeAttached();
  await screenshot(page, 'api-reference');

  let real: Record<string, unknown> = {};
  await expect(async () => {
    real = (await v1(demo.baseUrl, demo.testKey, `/v1/generations/${id}`)).body;
    expect(real.status).toBe('succeeded');
  }).toPass({ timeout: 120_000 });

  await page.getByRole('button', { name: /Open Search/ }).first().click();
  await page.keyboard.type('Retrieve a generation');
  await page.getByRole('option', { name: /Retrieve a generation/ }).first().click();
  await expect(page.getByRole('heading', { name: 'Retrieve a generation' })).toBeVisible();
  const examples = page.locator('pre, code').filter({ hasText: '"object": "generation"' });
  await expect(examples.first()).toBeAttached();
  const texts = await examples.allTextContents();
  const example = texts.map((text) => {
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      return null;
    }
  }).find((value) => value?.object === 'generation');
  expect(example, 'a generation example on the page').toBeTruthy();
  expect(shape(example).sort()).toEqual(shape(real).sort());
  // The route's code samples: curl, the TypeScript SDK and the Python client.
  const operation = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Retrieve a generation' }) }).last();
  await operation.getByRole('button', { name: 'curl', exact: true }).click();
  await expect(page.getByRole('option')).toHaveText(['curl', 'SDK (TypeScript)', 'SDK (Python)']);
  await page.getByRole('option', { name: 'SDK (TypeScript)' }).click();
  await expect(operation.getByText("client.generations.retrieve('gen_3kTq9ZbX2mPw7LrV1sNc8YdA')")).toBeVisible();
  await operation.getByRole('button', { name: 'SDK (TypeScript)', exact: true }).click();
  await page.getByRole('option', { name: 'SDK (Python)' }).click();
  await expect(operation.getByText('client.generations.retrieve("gen_3kTq9ZbX2mPw7LrV1sNc8YdA")')).toBeVisible();
  expect(external, 'requests to another origin').toEqual([]);
});

test('fits a 390 px phone', async ({ browser, demo }) => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const small = await phone.newPage();
  await small.goto(`${demo.baseUrl}/docs`);
  await expect(small.getByRole('heading', { name: 'Roomtone API', level: 1 })).toBeVisible();
  expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(small, 'API reference on a phone');
  await screenshot(small, 'api-reference-phone');
  await phone.close();
});
