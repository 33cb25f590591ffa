/**
 * The playground keeps the member's work and judges inputs the moment they are
 * chosen: Back from another screen finds the image, the painted mask and the layers; a
 * new image asks before it discards a painted mask; a reload during a run picks the run up again
 * from the URL; a re-run never pairs a new input with an old output; the recent runs open their
 * own before/after; a 17 MB file, a text file and a 9000×7000 image are refused at choice with a
 * sentence under the field (nothing uploaded); live mode with no balance says so before Run.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, expectFitsWidth, holdEngineRuns, screenshot, SIGNED_OUT, signUpOwner, test } from './fixtures';
import { chooseFile, chooseKind, openPlayground, paint, roomPhoto, workDir } from './playground-helpers';
import { docScreen } from './doc-screens';

test.describe.configure({ mode: 'default' });

const TOO_BIG = path.join(workDir, 'toobig.jpg');
const TEXT = path.join(workDir, 'notes.jpg');
const HUGE = path.join(workDir, 'huge.png');
const SECOND = path.join(workDir, 'second.png');

async function refusedFiles(): Promise<void> {
  if (!fs.existsSync(TOO_BIG)) {
    // A JPEG's first bytes, then 17 MB: the size is judged before anything else.
    const bytes = Buffer.alloc(17 * 1024 * 1024, 0x20);
    bytes.set([0xff, 0xd8, 0xff, 0xe0]);
    fs.writeFileSync(TOO_BIG, bytes);
  }
  if (!fs.existsSync(TEXT)) fs.writeFileSync(TEXT, 'Meeting notes: paint the hall sage green.\n');
  if (!fs.existsSync(HUGE)) await sharp({ create: { width: 9000, height: 7000, channels: 3, background: { r: 200, g: 190, b: 170 } } }).png({ compressionLevel: 1 }).toFile(HUGE);
  if (!fs.existsSync(SECOND)) await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 90, g: 120, b: 160 } } }).png().toFile(SECOND);
}

test.beforeAll(async () => {
  await roomPhoto();
  await refusedFiles();
});

/** Painted pixels on the mask canvas (any opaque pixel). */
async function paintedPixels(page: Page): Promise<number> {
  return page.getByTestId('mask-canvas').evaluate((canvas: HTMLCanvasElement) => {
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
    return n;
  });
}

test('Back keeps the image, the painted mask and the layers; a new image asks before it discards the mask; the kind and settings are in the URL', async ({ page, demo }) => {
  await openPlayground(page, demo.organizationId);
  await chooseKind(page, 'Edit');
  await chooseFile(page);
  await page.getByRole('radio', { name: 'By painted areas (mask and layers)' }).check();
  await page.getByRole('radio', { name: 'Colour #FF0000' }).click();
  await paint(page, [0.05, 0.15], [0.5, 0.25]);
  await page.getByRole('button', { name: 'Add a layer for #FF0000' }).click();
  await page.getByLabel('Colour', { exact: true }).fill('#6B8E6B');
  await expect(page).toHaveURL(/kind=edit/);
  await expect(page).toHaveURL(/mode=mask/);
  const painted = await paintedPixels(page);
  expect(painted).toBeGreaterThan(1000);

  // Away to another screen by the navigation, then Back.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Generations' }).click();
  await expect(page.getByRole('heading', { name: 'Generations', level: 1 })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Playground', level: 1 })).toBeVisible();
  await expect(page.getByRole('radiogroup', { name: 'Kind of creation' }).getByRole('radio', { name: 'Edit', exact: true })).toBeChecked();
  await expect(page.getByTestId('image-source')).toContainText('room.jpg (960×640)');
  await expect(page.getByRole('radio', { name: 'By painted areas (mask and layers)' })).toBeChecked();
  await expect(page.getByTestId('mask-canvas')).toBeVisible();
  await expect.poll(() => paintedPixels(page)).toBe(painted);
  await expect(page.getByLabel('Colour', { exact: true })).toHaveValue(/#6B8E6B/i);
  await expect(page.getByTestId('unlayered-color')).toHaveCount(0);
  await expect(page.getByTestId('run')).toBeEnabled();
  await expectAccessible(page, 'playground after Back, mask kept');

  // Another image would discard the painted mask: asked first; Cancel keeps everything.
  await page.getByLabel('Image file').setInputFiles(SECOND);
  const dialog = page.getByRole('alertdialog', { name: 'Discard the painted mask?' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, 'discard-the-mask dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('image-source')).toContainText('room.jpg');
  await expect.poll(() => paintedPixels(page)).toBe(painted);
  // Confirmed, the new image starts a blank mask.
  await page.getByLabel('Image file').setInputFiles(SECOND);
  await dialog.getByRole('button', { name: 'Use the new image' }).click();
  await expect(page.getByTestId('image-source')).toContainText('second.png (800×600)');
  await expect.poll(() => paintedPixels(page)).toBe(0);

  // A reload would lose a painted mask (images stay in the page's memory): the page asks the
  // browser to confirm leaving (beforeunload prevented) while one is painted, and only then.
  const leaveAsks = () => page.evaluate(() => !window.dispatchEvent(new Event('beforeunload', { cancelable: true })));
  expect(await leaveAsks()).toBe(false);
  await page.getByTestId('mask-canvas').scrollIntoViewIfNeeded();
  await paint(page, [0.2, 0.2], [0.6, 0.5]);
  await expect.poll(() => paintedPixels(page)).toBeGreaterThan(1000);
  await expect.poll(leaveAsks).toBe(true);
});

test('a 17 MB file, a text file and a 9000×7000 image are refused the moment they are chosen, in a sentence under the field, and nothing is uploaded; so is such a mask', async ({ page, demo }) => {
  const uploads: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('playground.createUpload') || request.method() === 'PUT') uploads.push(request.url());
  });
  await openPlayground(page, demo.organizationId);
  await chooseKind(page, 'Upscale');
  const problem = page.getByTestId('image-choice-problem');

  await page.getByLabel('Image file').setInputFiles(TOO_BIG);
  await expect(problem).toContainText('toobig.jpg: This image is over 10 MB.');
  await expect(page.getByTestId('image-source')).toHaveCount(0);
  await expect(page.getByRole('img', { name: 'The input image' })).toHaveCount(0);
  await expect(page.getByTestId('run')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Copy curl' })).toBeDisabled();
  // The code behind "Details", for developers.
  await problem.getByText('Details').click();
  await expect(problem.locator('details')).toContainText('image_too_large');
  await expect(problem.locator('details')).toContainText('checked in your browser');
  await expectAccessible(page, 'a file over 10 MB refused at choice');
  await screenshot(page, 'playground-refused-file-light');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectFitsWidth(page, 'a refused file on a phone');
  await docScreen(page, 'playground-refused-file-phone-light', { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 860 });

  await page.getByLabel('Image file').setInputFiles(TEXT);
  await expect(problem).toContainText('notes.jpg: This file is not a JPEG, PNG or WebP image.');
  await expect(page.getByTestId('image-source')).toHaveCount(0);

  await page.getByLabel('Image file').setInputFiles(HUGE);
  await expect(problem).toContainText('huge.png: This image is 9000×7000 pixels: the limit is 8,192 pixels a side and 36 million pixels in all.');
  await expect(page.getByTestId('image-source')).toHaveCount(0);
  await expect(page.getByTestId('run')).toBeDisabled();
  expect(uploads).toEqual([]);

  // A valid file clears the refusal; the same limits hold for a mask PNG.
  await chooseFile(page);
  await expect(problem).toHaveCount(0);
  await expect(page.getByTestId('run')).toBeEnabled();
  await chooseKind(page, 'Edit');
  await page.getByRole('radio', { name: 'By painted areas (mask and layers)' }).check();
  await page.getByLabel('Start from a mask PNG').setInputFiles(HUGE);
  await expect(page.getByTestId('mask-load-problem')).toContainText('This mask is 9000×7000 pixels: the limit is 8,192 pixels a side and 36 million pixels in all. The mask was not loaded.');
  await page.getByLabel('Start from a mask PNG').setInputFiles(TEXT);
  await expect(page.getByTestId('mask-load-problem')).toContainText('The mask must be a PNG.');
  await expectAccessible(page, 'a mask PNG refused at choice');
});

test('a reload during a run picks it up again from the URL; Run waits while the same run is in flight; a re-run never pairs a new input with an old output; recent runs open their own before/after; live mode with no balance says so', async ({ browser, demo }) => {
  test.setTimeout(300_000);
  // An organization of its own, whose runs this test holds while it reloads.
  const context = await browser.newContext({ baseURL: demo.baseUrl, storageState: SIGNED_OUT });
  const page = await context.newPage();
  const email = `keeps-work-${Date.now()}@example.com`;
  const organizationId = await signUpOwner(page, demo, email, 'correct horse battery', 'Keeps Work Studio');
  const hold = holdEngineRuns(demo, organizationId);
  try {
    await openPlayground(page, organizationId);
    await chooseKind(page, 'Upscale');
    await chooseFile(page);
    await page.getByTestId('run').click();
    const status = page.getByTestId('generation-status');
    await expect(status).toHaveText('In progress', { timeout: 60_000 });
    await expect(page).toHaveURL(/gen=gen_/);
    const first = /gen=(gen_[0-9A-Za-z]+)/.exec(page.url())![1]!;
    // The same settings again wait for this run.
    await expect(page.getByTestId('run')).toBeDisabled();
    await expect(page.getByTestId('run-waits')).toContainText('This run is in flight');
    // People's words, not the API's (the raw value stays in the generation JSON for developers).
    await expect(page.getByTestId('generation-status')).toHaveText('In progress');
    await expect(page.getByTestId('result').getByRole('status').last()).not.toContainText('in_progress');
    await expect(page.getByTestId('run-history')).not.toContainText('in_progress');

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Playground', level: 1 })).toBeVisible();
    await expect(page.getByRole('radiogroup', { name: 'Kind of creation' }).getByRole('radio', { name: 'Upscale', exact: true })).toBeChecked();
    await expect(page.getByTestId('result')).toHaveAttribute('data-generation', first);
    await expect(status).toHaveText('In progress');
    await expect(page.getByRole('progressbar', { name: `Progress of ${first}` })).toBeVisible();
    await expect(page.getByTestId('run-history').getByRole('link')).toHaveCount(1);
    await expectAccessible(page, 'playground resumed after a reload');
    hold.release();
    await expect(status).toHaveText('Succeeded', { timeout: 120_000 });
    await expect(page.getByTestId('result-image')).toBeVisible();
    // Its own input is the "before", kept by this browser.
    await expect(page.getByTestId('before-image')).toBeVisible();
    await expect(page.getByTestId('run-history').getByRole('link').first()).toContainText('Succeeded');

    // A new image, a new run: the old result never shows with the new input.
    const again = holdEngineRuns(demo, organizationId);
    await page.getByLabel('Image file').setInputFiles(SECOND);
    await expect(page.getByTestId('image-source')).toContainText('second.png (800×600)');
    await expect(page.getByTestId('run')).toBeEnabled();
    await page.getByTestId('run').click();
    await expect(page.getByTestId('result')).not.toHaveAttribute('data-generation', first, { timeout: 60_000 });
    const second = (await page.getByTestId('result').getAttribute('data-generation'))!;
    await expect(status).toHaveText('In progress');
    await expect(page.getByTestId('result-image')).toHaveCount(0);
    again.release();
    await expect(status).toHaveText('Succeeded', { timeout: 120_000 });
    const output = await page.getByTestId('result-image').evaluate((img: HTMLImageElement) => new Promise<{ w: number; h: number }>((resolve) => (img.complete ? resolve({ w: img.naturalWidth, h: img.naturalHeight }) : img.addEventListener('load', () => resolve({ w: img.naturalWidth, h: img.naturalHeight })))));
    const before = await page.getByTestId('before-image').evaluate((img: HTMLImageElement) => new Promise<{ w: number; h: number }>((resolve) => (img.complete ? resolve({ w: img.naturalWidth, h: img.naturalHeight }) : img.addEventListener('load', () => resolve({ w: img.naturalWidth, h: img.naturalHeight })))));
    expect(output).toEqual({ w: 1600, h: 1200 });
    expect(before.w / before.h).toBeCloseTo(800 / 600, 2);

    // The first run, opened from the history, shows its own input (960×640) beside its own output.
    await expect(page.getByTestId('run-history').getByRole('link')).toHaveCount(2);
    await page.getByTestId('run-history').getByRole('link', { name: new RegExp(first) }).click();
    await expect(page.getByTestId('result')).toHaveAttribute('data-generation', first);
    await expect(page).toHaveURL(new RegExp(`gen=${first}`));
    await expect(page.getByTestId('result-image')).toBeVisible();
    const firstBefore = await page.getByTestId('before-image').evaluate((img: HTMLImageElement) => new Promise<number>((resolve) => (img.complete ? resolve(img.naturalWidth / img.naturalHeight) : img.addEventListener('load', () => resolve(img.naturalWidth / img.naturalHeight)))));
    expect(firstBefore).toBeCloseTo(960 / 640, 2);
    expect(second).not.toBe(first);
    await expectAccessible(page, 'playground with recent runs');
    await screenshot(page, 'playground-history-light');
    // At a laptop's and a phone's width, in both themes: nothing wider than the window, axe clean.
    for (const size of [
      { name: 'laptop', width: 1360, height: 850 },
      { name: 'phone', width: 390, height: 844 },
    ]) {
      await page.setViewportSize({ width: size.width, height: size.height });
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await expect(page.locator('html')).toHaveClass(new RegExp(theme));
        await expectFitsWidth(page, `playground, ${size.name}, ${theme}`);
        await expectAccessible(page, `playground, ${size.name}, ${theme}`, theme === 'light' ? 'all' : 'colours');
        await docScreen(page, `playground-${size.name}-${theme}`, { fullPage: true });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // Live mode, no credit yet: said before Run, with the way to Billing.
    await openPlayground(page, organizationId, '', 'live');
    await expect(page.getByTestId('low-balance')).toContainText('a live run would be refused');
    await expect(page.getByTestId('low-balance').getByRole('link', { name: 'Add credit on Billing' })).toHaveAttribute('href', `/o/${organizationId}/live/billing`);
    await expectAccessible(page, 'live playground with no balance');
  } finally {
    hold.release();
    await context.close();
  }
});
