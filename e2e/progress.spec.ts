/**
 * Progress a user can watch: a live decoration runs on a local ComfyUI (e2e/global-setup.ts)
 * whose sampler reports its 20 steps on its websocket, a second each, and holds at the
 * 18th until this test releases it (so a loaded machine cannot end the run before both screens
 * are looked at). The playground shows a real progress bar that moves, the stage and the
 * elapsed time; the generations screen shows the in-progress row's bar; then the result.
 */
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { expect, expectAccessible, screenshot, test } from './fixtures';

const ROOM = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-progress-')), 'room.jpg');

/** Lets the local ComfyUI's held run go on to its end. */
function releaseRun(comfy: { url: string; caPem: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    https
      .request(`${comfy.url}/test/release`, { method: 'POST', ca: comfy.caPem }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject)
      .end();
  });
}

test('a slow live generation: the generations screen shows its bar; the playground\'s bar moves with the stage and elapsed time; then the result', async ({ page, demo }) => {
  test.setTimeout(240_000);
  await sharp({ create: { width: 960, height: 640, channels: 3, background: { r: 200, g: 185, b: 160 } } }).jpeg().toFile(ROOM);
  await page.goto(`/o/${demo.organizationId}/live/playground`);
  await expect(page.getByRole('heading', { name: 'Playground', level: 1 })).toBeVisible();
  const radio = page.getByRole('radiogroup', { name: 'Kind of creation' }).getByRole('radio', { name: 'Decoration', exact: true });
  await expect(async () => {
    await radio.click();
    await expect(radio).toBeChecked({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await page.getByLabel('Image file').setInputFiles(ROOM);
  await page.getByRole('combobox', { name: 'Quality' }).click();
  await page.getByRole('option', { name: '1k', exact: true }).click();
  await page.getByRole('checkbox', { name: 'plants' }).click();
  await page.getByTestId('run').click();

  const bar = page.getByRole('progressbar', { name: /^Progress of gen_/ });
  await expect(bar).toBeVisible({ timeout: 60_000 });
  const id = ((await bar.getAttribute('aria-label')) ?? '').replace('Progress of ', '');
  // The playground's bar moves: the sampler's steps, read while the generation runs.
  const values = new Set<number>();
  await expect(async () => {
    const now = await bar.getAttribute('aria-valuenow');
    if (now !== null) values.add(Number(now));
    expect(values.size).toBeGreaterThanOrEqual(3);
  }).toPass({ timeout: 60_000, intervals: [250] });
  const seen = [...values];
  expect(seen).toEqual([...seen].sort((a, b) => a - b));
  expect(seen.some((v) => v > 5 && v < 90)).toBe(true);
  await expect(page.getByTestId('progress-text')).toContainText('Generating');
  const elapsed = page.getByTestId('progress-elapsed');
  await expect(elapsed).toHaveText(/^\d+:\d\d elapsed$/);
  const firstElapsed = await elapsed.textContent();
  await expect(elapsed).not.toHaveText(firstElapsed ?? '', { timeout: 5_000 });

  // The generations screen, in another tab while it still runs: the in-progress row carries its
  // bar (on a phone too).
  const list = await page.context().newPage();
  await list.setViewportSize({ width: 390, height: 844 });
  await list.goto(`/o/${demo.organizationId}/live/generations`);
  const rowBar = list.getByRole('progressbar', { name: `Progress of ${id}` });
  await expect(rowBar).toBeVisible({ timeout: 30_000 });
  await expect(list.getByTestId('progress-text').first()).toContainText(/%|In progress/);
  await expectAccessible(list, 'generations screen with an in-progress row');
  await screenshot(list, 'generations-progress-phone');
  await list.close();
  await expect(bar).toBeVisible();
  await expectAccessible(page, 'playground with a generation in progress');
  await screenshot(page, 'playground-progress');
  expect(await releaseRun(demo.comfy)).toBe(204);

  await expect(page.getByTestId('generation-status')).toHaveText('Succeeded', { timeout: 120_000 });
  await expect(bar).toBeHidden();
  await expect(page.getByTestId('result-image')).toBeVisible();
  const shown = JSON.parse((await page.getByTestId('generation-json').textContent()) ?? '{}') as { id: string; progress: number; livemode: boolean };
  expect(shown).toMatchObject({ id, progress: 1, livemode: true });
});
