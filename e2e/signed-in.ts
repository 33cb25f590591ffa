import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, signInWithPassword, state, test as base } from './fixtures';

/**
 * Tests that start signed in as the demo owner: one password sign-in per worker, saved as
 * Playwright's storageState in the run's data directory, then every test's context starts with
 * that session (no sign-in page per test).
 */
export const test = base.extend<object, { ownerState: string }>({
  ownerState: [
    async ({ browser }, provide) => {
      const demo = state();
      const file = path.join(demo.dataDir, `owner-state-${process.pid}.json`);
      if (!fs.existsSync(file)) {
        const context = await browser.newContext({ baseURL: demo.baseUrl });
        await signInWithPassword(await context.newPage(), demo.email, demo.password);
        await context.storageState({ path: file });
        await context.close();
      }
      await provide(file);
    },
    { scope: 'worker' },
  ],
  storageState: ({ ownerState }, provide) => provide(ownerState),
});

/** The page is no wider than the window (nothing to scroll sideways). */
export async function expectFitsWidth(page: Page, context: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${context}: page ${scrollWidth} px wide in a ${innerWidth} px window`).toBeLessThanOrEqual(innerWidth);
}

/** An element lies inside the window's width. */
export async function expectInsideWindow(page: Page, locator: ReturnType<Page['locator']>, context: string): Promise<void> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box, context).not.toBeNull();
  expect(box!.x, context).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, context).toBeLessThanOrEqual(width + 0.5);
}

export { expect };
