import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startProcess } from './test/start-server';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-explore-'));
const server = await startProcess({ name: 'explore', port: 3200, processes: 1, env: { DATA_DIR: dataDir, DATABASE_URL: '', SKIP_BUILD: '1', LOG_LEVEL: 'warn' }, timeoutMs: 240_000 });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => console.log('console:', m.type(), m.text().slice(0, 300)));
  page.on('pageerror', (e) => console.log('pageerror:', e.message));
  await page.goto(`${server.url}/docs`);
  await page.waitForTimeout(8000);
  await page.screenshot({ path: '/tmp/explore/docs.png' });
  console.log('requests', [...new Set(requests)].join('\n'));
  const html = await page.content();
  fs.writeFileSync('/tmp/explore/docs.html', html);
  console.log('buttons', (await page.getByRole('button').allTextContents()).slice(0, 40));
  const mobile = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await mobile.goto(`${server.url}/docs`);
  await mobile.waitForTimeout(6000);
  await mobile.screenshot({ path: '/tmp/explore/docs-mobile.png' });
  console.log('mobile scrollWidth', await mobile.evaluate(() => document.documentElement.scrollWidth));
} finally {
  await browser.close();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
