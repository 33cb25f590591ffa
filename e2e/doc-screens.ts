import path from 'node:path';
import type { Page } from '@playwright/test';

/** With E2E_DOC_SCREENS=1, the screenshots docs/console.md shows, written to docs/screens/<name>.png. */
export async function docScreen(page: Page, name: string): Promise<void> {
  if (process.env.E2E_DOC_SCREENS !== '1') return;
  await page.screenshot({ path: path.resolve(import.meta.dirname, '..', 'docs', 'screens', `${name}.png`) });
}
