import path from 'node:path';
import type { Page } from '@playwright/test';

/**
 * With E2E_DOC_SCREENS=1 (a run that means to refresh them), the screenshots docs/console.md
 * shows, written to docs/screens/<name>.png: the window, or with `fullPage` the whole page.
 */
export async function docScreen(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env.E2E_DOC_SCREENS !== '1') return;
  await page.screenshot({ path: path.resolve(import.meta.dirname, '..', 'docs', 'screens', `${name}.png`), fullPage: options.fullPage ?? false, animations: 'disabled' });
}
