/**
 * The browser of the e2e tests: `CHROMIUM_PATH`, else Debian's headless shell, else Debian's
 * Chromium. Playwright cannot download its own browsers here. The headless shell (`apt-get
 * install chromium-headless-shell`) is Chromium's renderer without the browser around it, the
 * build Playwright itself runs headless by default: the same Blink, about a fifth less CPU for
 * the suite (docs/testing.md).
 */
import fs from 'node:fs';

export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];

/** The path to launch, or null when neither is installed (and CHROMIUM_PATH is not set). */
export function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return CHROMIUM_CANDIDATES.find((candidate) => fs.existsSync(candidate)) ?? null;
}
