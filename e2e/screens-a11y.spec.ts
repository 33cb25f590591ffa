/**
 * Runs after console.spec.ts (files run in name order), so the screens show data. Every screen, signed out and signed in, in light and dark: no serious or critical axe
 * violation (every rule in light, the colour rules in dark: a theme swaps colours only), no console error or uncaught exception, and (with E2E_SCREENSHOTS=1) a full-page screenshot of each in e2e/screenshots/ for a person to look at.
 */
import { collectConsoleErrors, expect, expectAccessible, screenshot, SIGNED_OUT, test } from './fixtures';

const SCREENS = ['overview', 'keys', 'logs', 'generations', 'playground', 'billing', 'usage', 'members', 'webhooks', 'audit', 'settings', 'account'] as const;

for (const theme of ['light', 'dark'] as const) {
  // Every rule in light; in dark the rules a theme can change (fixtures.ts, THEME_RULES).
  const scope = theme === 'light' ? 'all' : 'colours';
  test(`signed-out pages are accessible (${theme})`, async ({ browser, demo }) => {
    const context = await browser.newContext({ baseURL: demo.baseUrl, storageState: SIGNED_OUT });
    const page = await context.newPage();
    await page.emulateMedia({ colorScheme: theme });
    const consoleErrors = collectConsoleErrors(page);
    for (const [name, path] of [
      ['sign-in', '/sign-in'],
      ['sign-up', '/sign-up'],
      ['reset-password', '/reset-password'],
      ['verify-email', '/verify-email?token=0123456789abcdef'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectAccessible(page, `${path} (${theme})`, scope);
      await screenshot(page, `${name}-${theme}`);
    }
    consoleErrors.expectNone(`on the signed-out pages (${theme})`);
    await context.close();
  });

  test(`every console screen is accessible and logs no error (${theme})`, async ({ page, demo }) => {
    await page.emulateMedia({ colorScheme: theme });
    const consoleErrors = collectConsoleErrors(page);
    for (const screen of SCREENS) {
      await page.goto(`/o/${demo.organizationId}/test/${screen}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // Loaded: no skeleton left on the page.
      await expect(page.locator('[role="status"][data-state="loading"], [role="status"][aria-label^="Loading"]')).toHaveCount(0);
      await expect(page.locator('html')).toHaveClass(new RegExp(theme === 'dark' ? 'dark' : 'light'));
      await expectAccessible(page, `${screen} (${theme})`, scope);
      await screenshot(page, `${screen}-${theme}`);
      consoleErrors.expectNone(`on ${screen} (${theme})`);
    }
    // A detail panel and a dialog, too.
    await page.goto(`/o/${demo.organizationId}/test/keys`);
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectAccessible(page, `create key dialog (${theme})`, scope);
    await screenshot(page, `keys-create-${theme}`);
    consoleErrors.expectNone(`with the create key dialog (${theme})`);
  });
}
