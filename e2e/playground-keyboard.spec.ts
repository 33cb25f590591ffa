/**
 * The playground beyond the mouse and the happy path, in Chromium: a two-colour mask painted by
 * keyboard only (focusable canvas, a rectangle by arrow keys, radio groups for the kinds and the
 * swatches, Ctrl+Z and Ctrl+Shift+Z on the canvas) that the server stores with exactly those
 * colours, with axe at every step; the painted mask downloaded as mask.png and the copied curl
 * and JavaScript run as copied, each getting a succeeded generation; what live mode cannot run
 * said before Run (Run disabled, the setting named, agreeing with /v1's 503); messages that go
 * when their cause goes (a missing image, a wrong mask PNG explained instead of a silent clear);
 * and the run followed by reads that wait on the server, never by a polling loop.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { analyzeMask, MASK_PALETTE } from '@/server/capabilities/images/mask';
import { expect, expectAccessible, test, v1 } from './fixtures';
import { chooseFile, chooseKind, openPlayground, paint, pickOption, ROOM, roomPhoto, runToSuccess, workDir, type ShownGeneration } from './playground-helpers';

test.describe.configure({ mode: 'default' });

/** React has hydrated the screen (the copied code gets its client-made Idempotency-Key then). */
async function hydrated(page: Page): Promise<void> {
  await expect(page.getByTestId('code-curl')).toContainText('Idempotency-Key');
}

async function press(page: Page, key: string, times = 1): Promise<void> {
  for (let i = 0; i < times; i++) await page.keyboard.press(key);
}

test('a two-colour mask painted by keyboard only: rectangles by arrow keys, swatches and kinds as radio groups, undo and redo; axe at every step', async ({ page, demo }) => {
  await roomPhoto();
  await openPlayground(page, demo.organizationId);
  await hydrated(page);
  await expectAccessible(page, 'playground on load');

  // The kinds: one tab stop, arrows move the choice.
  const kinds = page.getByRole('radiogroup', { name: 'Kind of creation' });
  await kinds.getByRole('radio', { name: 'Render', exact: true }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(kinds.getByRole('radio', { name: 'Edit', exact: true })).toBeChecked();
  await expect(kinds.getByRole('radio', { name: 'Edit', exact: true })).toBeFocused();
  await expect(kinds.getByRole('radio', { name: 'Render', exact: true })).toHaveAttribute('tabindex', '-1');

  // The image by keyboard: the file input takes the focus and opens the chooser with Space.
  // Waiting for the chooser is what turns on Playwright's interception of it, and that request
  // goes to the browser without being awaited: sent just before the key press, the press could
  // reach the page first, and the chooser then opened unintercepted (no event; CI saw it once).
  // Asked for before the focus, the interception is on by the time the focus has been checked
  // (each a round trip to the page behind it).
  const chooser = page.waitForEvent('filechooser', { timeout: 15_000 });
  const fileInput = page.getByLabel('Image file');
  await fileInput.focus();
  await expect(fileInput).toBeFocused();
  await page.keyboard.press('Space');
  await (await chooser).setFiles(ROOM);
  await expect(page.getByTestId('image-source')).toContainText('room.jpg (960×640)');
  await page.getByRole('radio', { name: 'By instruction (prompt)' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'By painted areas (mask and layers)' })).toBeChecked();
  await page.getByRole('combobox', { name: 'Quality' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('option', { name: '1k', exact: true }).press('Enter');
  await expect(page.getByRole('combobox', { name: 'Quality' })).toHaveText('1k');
  await expectAccessible(page, 'playground, empty mask painter');

  // The canvas is the tab stop after the painter's controls.
  const canvas = page.getByTestId('mask-canvas');
  await page.getByRole('slider', { name: 'Overlay opacity' }).focus();
  await page.keyboard.press('Tab');
  await expect(canvas).toBeFocused();
  await expect(canvas).toHaveAccessibleName(/Mask canvas/);
  await expect(page.getByTestId('mask-cursor')).toBeAttached();
  // Focused by keyboard, the canvas's frame shows a ring (the canvas's own would be cut by the
  // scrolling frame and faded by the overlay's opacity).
  const frame = page.getByTestId('mask-frame');
  await expect(frame).toHaveCSS('outline-style', 'solid');
  await expect(frame).toHaveCSS('outline-width', '3px');
  expect(await frame.evaluate((el) => getComputedStyle(el).outlineColor)).not.toMatch(/^(transparent|rgba\(0, 0, 0, 0\))$/);
  await page.getByRole('slider', { name: 'Overlay opacity' }).focus();
  await expect(frame).toHaveCSS('outline-style', 'none');
  await page.keyboard.press('Tab');
  await expect(canvas).toBeFocused();

  // Red rectangle over the wall: R, then corners by arrows (the cursor starts in the middle).
  await page.keyboard.press('r');
  await expect(page.getByRole('button', { name: 'Rectangle' })).toHaveAttribute('aria-pressed', 'true');
  // Both corners on one spot: nothing is painted, and the live region does not say it was.
  await page.keyboard.press('Space');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('mask-announcement')).toHaveText('Nothing painted: the rectangle had no width or height. Space sets a first corner again.');
  await expect(page.getByTestId('unlayered-color')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Undo' })).toBeDisabled();
  await press(page, 'Shift+ArrowUp', 3); // 20 % down
  await press(page, 'Shift+ArrowLeft', 4); // 10 % across
  await page.keyboard.press('Space');
  await press(page, 'Shift+ArrowRight', 3); // 40 % across
  await press(page, 'ArrowDown', 10); // 40 % down
  await page.keyboard.press('Space');
  await expect(page.getByTestId('mask-announcement')).toHaveText('Rectangle painted in #FF0000.');

  // Blue over the armchair: the swatch radio group answers to 4 on the canvas, and to arrows in itself.
  await page.keyboard.press('4');
  const swatches = page.getByRole('radiogroup', { name: 'Mask colour' });
  await expect(swatches.getByRole('radio', { name: 'Colour #0066FF' })).toBeChecked();
  await press(page, 'Shift+ArrowRight', 2); // 60 %
  await press(page, 'Shift+ArrowDown', 2); // 60 %
  await page.keyboard.press('Space');
  await press(page, 'Shift+ArrowRight', 1); // 70 %
  await press(page, 'Shift+ArrowDown', 1); // 70 %
  await page.keyboard.press('Space');
  const flagged = page.getByTestId('unlayered-color');
  await expect(flagged).toHaveCount(2);
  await expectAccessible(page, 'playground, two painted colours without layers');

  // Ctrl+Z right here takes the blue rectangle back; Ctrl+Shift+Z brings it again.
  await expect(canvas).toBeFocused();
  await page.keyboard.press('Control+z');
  await expect(flagged).toHaveCount(1);
  await expect(flagged).toContainText('#FF0000');
  await page.keyboard.press('Control+Shift+z');
  await expect(flagged).toHaveCount(2);

  // The swatches by arrows: from #0066FF, Left goes back to #00FF66.
  await swatches.getByRole('radio', { name: 'Colour #0066FF' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(swatches.getByRole('radio', { name: 'Colour #00FF66' })).toBeChecked();

  // Layers by keyboard: red becomes a colour, blue is removed.
  await page.getByRole('button', { name: 'Add a layer for #FF0000' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Add a layer for #0066FF' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('combobox', { name: 'Action of layer 2' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('option', { name: 'Remove the object' }).press('Enter');
  await expect(page.getByRole('combobox', { name: 'Action of layer 2' })).toHaveText('Remove the object');
  await expectAccessible(page, 'playground, two layers');

  await page.getByTestId('run').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('generation-status')).toHaveText('Succeeded', { timeout: 180_000 });
  const edit = JSON.parse((await page.getByTestId('generation-json').textContent()) ?? '{}') as ShownGeneration;
  expect(edit.input).toMatchObject({ mode: 'mask', layers: [{ mask_color: '#FF0000', action: 'modify' }, { mask_color: '#0066FF', action: 'remove' }] });
  const stored = fs.readFileSync(path.join(demo.dataDir, 'blobs', 'inputs', edit.id, 'mask.png'));
  const analysis = await analyzeMask(stored, { width: 960, height: 640 });
  expect(analysis.paintedColors).toEqual(['#FF0000', '#0066FF']);
  // The red rectangle covers 10–40 % across and 20–40 % down: 6 % of the mask.
  expect(analysis.coverage['#FF0000']).toBeGreaterThan(0.05);
  expect(analysis.coverage['#FF0000']).toBeLessThan(0.07);
  await expectAccessible(page, 'playground, a mask edit result');
  for (const theme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveClass(new RegExp(theme));
    await expectAccessible(page, `playground, a mask edit result (${theme})`, 'colours'); // scanned whole just above
  }
});

test('the painted mask downloads as mask.png beside the copied code; the copied curl and JavaScript, run as copied with it, get a succeeded generation', async ({ page, demo }) => {
  await openPlayground(page, demo.organizationId);
  await hydrated(page);
  await chooseKind(page, 'Edit');
  await chooseFile(page);
  await page.getByRole('radio', { name: 'By painted areas (mask and layers)' }).check();
  await pickOption(page, 'Quality', '1k');
  await page.getByRole('radio', { name: 'Colour #CC00FF' }).click();
  await paint(page, [0.1, 0.2], [0.45, 0.3]);
  await page.getByRole('button', { name: 'Add a layer for #CC00FF' }).click();
  await page.getByLabel('Colour', { exact: true }).fill('#6B8E6B');
  const curl = (await page.getByTestId('code-curl').textContent()) ?? '';
  expect(curl).toContain("-F 'mask=@mask.png'");
  expect(curl).toContain("-F 'image=@room.jpg'");

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download mask.png' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('mask.png');
  await file.saveAs(path.join(workDir, 'mask.png'));
  // Exact palette colours with hard edges: every pixel is #CC00FF at alpha 255 or transparent.
  const { data, info } = await sharp(path.join(workDir, 'mask.png')).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const seen = new Set<string>();
  for (let i = 0; i < data.length; i += 4) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]},${data[i + 3]}`);
  expect([...seen].sort()).toEqual(['0,0,0,0', '204,0,255,255']);
  expect(info.width / info.height).toBeCloseTo(960 / 640, 2);
  expect((await analyzeMask(fs.readFileSync(path.join(workDir, 'mask.png')), { width: 960, height: 640 })).paintedColors).toEqual(['#CC00FF']);
  expect(MASK_PALETTE).toContain('#CC00FF');

  const env = { ...process.env, ROOMTONE_API_KEY: demo.testKey };
  const fromCurl = JSON.parse(execFileSync('sh', ['-c', `${curl} --silent --show-error --max-time 300`], { cwd: workDir, env, encoding: 'utf8' })) as ShownGeneration;
  expect(fromCurl).toMatchObject({ type: 'edit', status: 'succeeded', input: { mode: 'mask', layers: [{ mask_color: '#CC00FF', action: 'modify', color: '#6B8E6B' }] } });

  await page.getByRole('tab', { name: 'JavaScript' }).click();
  const js = (await page.getByTestId('code-javascript').textContent()) ?? '';
  expect(js).toContain('openAsBlob("mask.png")');
  fs.writeFileSync(path.join(workDir, 'copied.mjs'), `${js}\nconsole.log(JSON.stringify(generation));\n`);
  // The copied code prints the output's URL itself; the line appended above prints the object.
  const printed = execFileSync(process.execPath, ['copied.mjs'], { cwd: workDir, env, encoding: 'utf8', timeout: 300_000 }).trim().split('\n');
  expect(printed).toHaveLength(2);
  expect(printed[0]).toMatch(/^https?:\/\/\S+$/);
  const fromJs = JSON.parse(printed[1]!) as ShownGeneration;
  expect(fromJs.status).toBe('succeeded');
  // The same code with the same Idempotency-Key is the same request: the same generation.
  expect(fromJs.id).toBe(fromCurl.id);
});

test('live mode says before Run what this installation cannot run, with the setting that enables it, as /v1 answers', async ({ page, demo }) => {
  await roomPhoto();
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(fs.readFileSync(ROOM))], { type: 'image/jpeg' }), 'room.jpg');
  form.append('quality', '1k');
  const refused = await v1(demo.baseUrl, demo.liveKey, '/v1/renders', { method: 'POST', body: form });
  expect(refused.status).toBe(503);
  expect(refused.body).toMatchObject({ error: { code: 'mode_unavailable' } });

  await openPlayground(page, demo.organizationId, '', 'live');
  await hydrated(page);
  await chooseFile(page); // Run waits for an image first
  const note = page.getByTestId('availability');
  const run = page.getByTestId('run');
  await expect(note).toContainText('Live renders are not available on this installation');
  await expect(note).toContainText('ENGINE_RENDER');
  await expect(run).toBeDisabled();
  await expectAccessible(page, 'live playground, render unavailable');

  // The e2e server runs live decorations on its local ComfyUI (ENGINE_DECORATION): offered.
  await chooseKind(page, 'Decoration');
  await expect(note).toHaveCount(0);
  await expect(run).toBeEnabled();
  await chooseKind(page, 'Edit');
  await expect(note).toContainText('Live prompt edits are not available');
  await expect(note).toContainText('ENGINE_EDIT_PROMPT');
  await expect(run).toBeDisabled();
  await page.getByRole('radio', { name: 'By painted areas (mask and layers)' }).check();
  await expect(note).toHaveCount(0);
  await chooseKind(page, 'Upscale');
  await expect(note).toHaveCount(0);
  await expect(run).toBeEnabled();

  // Every kind at a glance.
  await page.getByText('What runs on this installation').click();
  const table = page.getByTestId('availability-table');
  await expect(table.getByRole('row', { name: /renders/i })).toContainText('unavailable (ENGINE_RENDER)');
  await expect(table.getByRole('row', { name: /mask edits/i })).toContainText('real image');
  await expect(table.getByRole('row', { name: /upscales/i })).toContainText('available');
  await expect(table.getByRole('row', { name: /decorations/i })).not.toContainText('unavailable');
});

test('messages go with their cause: Run waits for an image, and a mask PNG of the wrong size or colours is explained, not silently dropped', async ({ page, demo }) => {
  await roomPhoto();
  await openPlayground(page, demo.organizationId);
  await hydrated(page);
  await chooseKind(page, 'Edit');
  // Without an image, Run and the copy buttons wait, and say why.
  await expect(page.getByTestId('run')).toBeDisabled();
  await expect(page.getByTestId('run-waits')).toHaveText('Choose a valid image to run.');
  await expect(page.getByRole('button', { name: 'Copy curl' })).toBeDisabled();
  await expect(page.getByTestId('code-waits')).toContainText('Choose a valid image first');
  await chooseFile(page);
  await expect(page.getByTestId('run')).toBeEnabled();
  await expect(page.getByTestId('run-waits')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Copy curl' })).toBeEnabled();

  await page.getByRole('radio', { name: 'By painted areas (mask and layers)' }).check();
  await page.getByRole('radio', { name: 'Colour #FF0000' }).click();
  await paint(page, [0.1, 0.2], [0.4, 0.3]);
  await expect(page.getByTestId('unlayered-color')).toHaveCount(1);

  const square = path.join(workDir, 'square-mask.png');
  await sharp({ create: { width: 800, height: 800, channels: 4, background: { r: 0, g: 102, b: 255, alpha: 1 } } }).png().toFile(square);
  await page.getByLabel('Start from a mask PNG').setInputFiles(square);
  const problem = page.getByTestId('mask-load-problem');
  await expect(problem).toContainText("This mask is 800×800: it must have the photo's proportions (960×640) within 1 %");
  await expect(page.getByTestId('unlayered-color')).toHaveCount(1); // the painted mask is kept
  await expect(page.getByTestId('unlayered-color')).toContainText('#FF0000');

  const grey = path.join(workDir, 'grey-mask.png');
  await sharp({ create: { width: 960, height: 640, channels: 4, background: { r: 128, g: 128, b: 128, alpha: 1 } } }).png().toFile(grey);
  await page.getByLabel('Start from a mask PNG').setInputFiles(grey);
  await expect(problem).toContainText("None of this PNG's opaque pixels is a palette colour");
  await expect(page.getByTestId('unlayered-color')).toContainText('#FF0000');

  const blue = path.join(workDir, 'blue-mask.png');
  await sharp({ create: { width: 768, height: 512, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: { create: { width: 120, height: 120, channels: 4, background: { r: 0, g: 102, b: 255, alpha: 1 } } }, left: 480, top: 300 }])
    .png()
    .toFile(blue);
  await page.getByLabel('Start from a mask PNG').setInputFiles(blue);
  await expect(problem).toHaveCount(0);
  await expect(page.getByTestId('unlayered-color')).toHaveCount(1);
  await expect(page.getByTestId('unlayered-color')).toContainText('#0066FF');
  await expectAccessible(page, 'playground after a refused and a loaded mask PNG');
});

test('a run waits on the server: the creation and each read after it wait for the end (no polling loop), and the end answers a request that was already waiting', async ({ page, demo }) => {
  await openPlayground(page, demo.organizationId);
  await hydrated(page);
  await chooseKind(page, 'Upscale');
  await chooseFile(page);
  const waits: { procedure: string; started: number; waitMs: number }[] = [];
  let polls = 0;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/trpc/playground.create') {
      waits.push({ procedure: 'create', started: Date.now(), waitMs: (request.postDataJSON() as { waitMs?: number }).waitMs ?? -1 });
    } else if (url.pathname === '/api/trpc/playground.follow') {
      const input = JSON.parse(url.searchParams.get('input') ?? '{}') as { waitMs?: number };
      waits.push({ procedure: 'follow', started: Date.now(), waitMs: input.waitMs ?? -1 });
    } else if (url.pathname.startsWith('/api/trpc/') && url.pathname.includes('generations.get')) polls++;
  });
  const generation = await runToSuccess(page);
  const completedMs = ((generation as ShownGeneration & { completed_at: number }).completed_at + 1) * 1000;
  expect(polls).toBe(0);
  expect(waits[0]?.procedure).toBe('create');
  // The creation waits like a synchronous /v1 call; a longer run is followed by reads that wait too.
  expect(waits.every((w) => w.waitMs > 0), JSON.stringify(waits)).toBe(true);
  expect(waits.slice(1).every((w) => w.procedure === 'follow')).toBe(true);
  // The request that brought the end had started before the generation ended: the server woke it.
  expect(waits.at(-1)!.started).toBeLessThan(completedMs);
});
