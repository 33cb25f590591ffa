/**
 * The playground: every kind run in test mode to a succeeded result on screen; a mask
 * painted with the mouse in two colours → a two-layer edit (recolour a wall, remove an object)
 * that the server accepts and stores with exactly those colours; an unlayered colour flagged
 * before sending; a server refusal shown under its field; the copied curl and the copied SDK
 * code, run with the real key, create a generation with the same settings; replay from the
 * request log; axe and screenshots.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { analyzeMask } from '@/server/capabilities/images/mask';
import { money } from '@/console-client/format';
import { expect, expectAccessible, screenshot, test } from './fixtures';
import { chooseFile, chooseKind, openPlayground, paint, pickOption, runToSuccess, workDir, type ShownGeneration } from './playground-helpers';

test.describe.configure({ mode: 'default' });

test('each kind runs in test mode to a succeeded result; the price comes first; an output chains as the next input', async ({ page, demo }) => {
  await openPlayground(page, demo.organizationId);

  // Render from a file, 1k, with a style and metadata.
  await chooseKind(page, 'Render');
  await chooseFile(page);
  await pickOption(page, 'Quality', '1k');
  await page.getByRole('radiogroup', { name: 'Style' }).getByRole('radio').nth(1).check();
  await page.getByRole('button', { name: 'Add a pair' }).click();
  await page.getByLabel('Metadata key 1').fill('project');
  await page.getByLabel('Metadata value 1').fill('e2e');
  const price = page.getByTestId('price');
  await expect(price).toContainText('No charge in test mode');
  await expect(page.getByTestId('quota')).toContainText(/Generations left: \d+ of \d+ this minute/);
  const priceText = await price.textContent();
  const render = await runToSuccess(page);
  expect(render.type).toBe('render');
  expect(render.input).toMatchObject({ quality: '1k' });
  expect(render.metadata).toEqual({ project: 'e2e' });
  expect(priceText).toContain(money(render.cost.amount)); // the price shown is the cost.amount given
  // A render needs a generative model: here (none configured) test mode answers a preview. The
  // Run card says so once; the result is badged, without repeating the sentence.
  await expect(page.getByTestId('preview-badge')).toHaveText('Test-mode preview');
  await expect(page.getByTestId('availability')).toContainText('Test mode returns a preview for renders on this installation');
  await expect(page.getByTestId('availability')).toContainText('ENGINE_RENDER');
  await expect(page.getByText('Test mode returns a preview for renders')).toHaveCount(1);
  await expect(page.getByTestId('preview-note')).toHaveCount(0);
  await expectAccessible(page, 'playground with a render result');
  await screenshot(page, 'playground-render-light');

  // Upscale the render's output ("use as input").
  await page.getByRole('button', { name: 'Use as input' }).click();
  await expect(page.getByTestId('image-source')).toContainText(`Output of ${render.id}`);
  await chooseKind(page, 'Upscale');
  // The render's result belongs to the render: the upscale shows none until it runs; upscales are real, no preview note.
  await expect(page.getByTestId('generation-status')).toHaveCount(0);
  await expect(page.getByTestId('availability')).toHaveCount(0);
  await pickOption(page, 'Scale', 'x2');
  const upscale = await runToSuccess(page);
  await expect(page.getByTestId('preview-badge')).toHaveCount(0);
  expect(upscale).toMatchObject({ type: 'upscale', input: { scale: 'x2', quality: null } });

  // Decoration with categories.
  await chooseKind(page, 'Decoration');
  await chooseFile(page);
  await pickOption(page, 'Quality', '1k');
  await page.getByRole('checkbox', { name: 'plants' }).click();
  await page.getByRole('checkbox', { name: 'rugs' }).click();
  const decoration = await runToSuccess(page);
  expect(decoration).toMatchObject({ type: 'decoration', input: { quality: '1k', categories: ['plants', 'rugs'] } });

  // Edit by instruction.
  await chooseKind(page, 'Edit');
  await pickOption(page, 'Quality', '1k');
  await page.getByRole('textbox', { name: 'Instruction' }).fill('Paint the walls sage green');
  const edit = await runToSuccess(page);
  expect(edit).toMatchObject({ type: 'edit', input: { mode: 'prompt', prompt: 'Paint the walls sage green', quality: '1k' } });
});

test('a mask painted with the mouse in two colours: a painted colour without a layer is flagged, then a recolour + remove edit succeeds with exactly those colours', async ({ page, demo }) => {
  await openPlayground(page, demo.organizationId);
  await chooseKind(page, 'Edit');
  await chooseFile(page);
  await page.getByRole('radio', { name: 'By painted areas (mask and layers)' }).check();
  await pickOption(page, 'Quality', '1k');
  await expect(page.getByTestId('mask-canvas')).toBeVisible();

  // Red over the wall, blue over the armchair.
  await page.getByRole('radio', { name: 'Colour #FF0000' }).click();
  await paint(page, [0.05, 0.15], [0.5, 0.2]);
  await paint(page, [0.05, 0.35], [0.5, 0.4]);
  await page.getByRole('radio', { name: 'Colour #0066FF' }).click();
  await paint(page, [0.62, 0.6], [0.8, 0.75]);

  // Both colours are painted, none has a layer: flagged, and Run is blocked.
  const flagged = page.getByTestId('unlayered-color');
  await expect(flagged).toHaveCount(2);
  await expect(flagged.first()).toContainText('#FF0000 is painted but has no layer');
  await expect(page.getByTestId('run')).toBeDisabled();
  await page.getByRole('button', { name: 'Add a layer for #FF0000' }).click();
  await expect(flagged).toHaveCount(1);
  await expect(flagged).toContainText('#0066FF is painted but has no layer');
  await expect(page.getByTestId('blocked')).toBeVisible();
  await expect(page.getByTestId('run')).toBeDisabled();
  await expectAccessible(page, 'playground mask painter');
  await screenshot(page, 'playground-mask-light');

  // Wall: a new colour; armchair: removed.
  await page.getByLabel('Colour', { exact: true }).fill('#6B8E6B');
  await page.getByRole('button', { name: 'Add a layer for #0066FF' }).click();
  await pickOption(page, 'Action of layer 2', 'Remove the object');
  await expect(page.getByTestId('code-curl')).toContainText("-F 'mask=@mask.png'");

  const edit = await runToSuccess(page);
  expect(edit.input).toEqual({
    quality: '1k',
    scale: null,
    mode: 'mask',
    layers: [
      { mask_color: '#FF0000', action: 'modify', color: '#6B8E6B', finish: 'default' },
      { mask_color: '#0066FF', action: 'remove' },
    ],
  });
  // The mask the server received and stored (inputs of the generation), read by its own analysis.
  const stored = fs.readFileSync(path.join(demo.dataDir, 'blobs', 'inputs', edit.id, 'mask.png'));
  const analysis = await analyzeMask(stored, { width: 960, height: 640 });
  expect(analysis.paintedColors).toEqual(['#FF0000', '#0066FF']);
  expect(analysis.maskWidth / analysis.maskHeight).toBeCloseTo(960 / 640, 2);
  await screenshot(page, 'playground-mask-result-light');
});

test('a server refusal is shown with its code under the field it names', async ({ page, demo }) => {
  await openPlayground(page, demo.organizationId);
  await chooseKind(page, 'Upscale');
  await page.getByLabel('Image URL').fill('https://127.0.0.1/room.jpg');
  await page.getByRole('button', { name: 'Use URL' }).click();
  await page.getByTestId('run').click();
  const error = page.getByTestId('error-image');
  // A sentence first; the API's code and the request id behind "Details".
  await expect(error.locator('p').first()).not.toContainText('image_url_unreachable');
  await expect(error.locator('details')).not.toHaveAttribute('open');
  await error.getByText('Details').click();
  await expect(error.locator('details')).toContainText('image_url_unreachable');
  await expect(error.locator('details')).toContainText(/request req_[0-9A-Za-z]+/);
  // It sits in the Image card, next to the image inputs.
  await expect(page.locator('section', { has: page.getByLabel('Image URL') }).getByTestId('error-image')).toBeVisible();
});

test('copy as curl: the copied command, run with the real key, creates a generation with the same settings', async ({ page, demo }) => {
  await openPlayground(page, demo.organizationId);
  await chooseKind(page, 'Decoration');
  await chooseFile(page);
  await pickOption(page, 'Quality', '1k');
  await page.getByRole('checkbox', { name: 'lighting' }).click();
  await page.getByRole('button', { name: 'Add a pair' }).click();
  await page.getByLabel('Metadata key 1').fill('source');
  await page.getByLabel('Metadata value 1').fill("curl's test");
  const curl = (await page.getByTestId('code-curl').textContent()) ?? '';
  expect(curl).toContain('$ROOMTONE_API_KEY');
  expect(curl).not.toContain(demo.testKey);
  expect(curl).toContain("-F 'image=@room.jpg'");
  await page.getByRole('tab', { name: 'Python' }).click();
  await expect(page.getByTestId('code-python')).toContainText('"image": ("room.jpg", open("room.jpg", "rb"))');
  await page.getByRole('tab', { name: 'JavaScript' }).click();
  await expect(page.getByTestId('code-javascript')).toContainText("form.append(\"image\", await openAsBlob(\"room.jpg\")");
  const played = await runToSuccess(page);

  const out = execFileSync('sh', ['-c', `${curl} --silent --show-error --max-time 300`], { cwd: workDir, env: { ...process.env, ROOMTONE_API_KEY: demo.testKey }, encoding: 'utf8' });
  const created = JSON.parse(out) as ShownGeneration;
  expect(created.id).toMatch(/^gen_/);
  expect(created.id).not.toBe(played.id);
  expect(created.type).toBe('decoration');
  expect(created.input).toEqual(played.input);
  expect(created.metadata).toEqual({ source: "curl's test" });
  expect(created.cost.amount).toBe(played.cost.amount);

  // The JavaScript copy, run as copied with Node, prints the new generation's output URL at its end.
  await page.getByRole('tab', { name: 'JavaScript' }).click();
  const js = (await page.getByTestId('code-javascript').textContent()) ?? '';
  expect(js.trimEnd().split('\n').pop()).toContain('console.log(generation.output[0]?.url');
  fs.writeFileSync(path.join(workDir, 'copied.mjs'), js);
  const printed = execFileSync(process.execPath, ['copied.mjs'], { cwd: workDir, env: { ...process.env, ROOMTONE_API_KEY: demo.testKey }, encoding: 'utf8' }).trim();
  expect(printed).toMatch(/^https?:\/\/\S+$/);
  await page.getByRole('tab', { name: 'Python' }).click();
  await expect(page.getByTestId('code-python')).toContainText('print(generation["output"][0]["url"] if generation["output"]');
});

test('copy as SDK: the copied code, run with node and the real key, creates a generation with the same settings', async ({ page, demo }) => {
  await openPlayground(page, demo.organizationId);
  await chooseKind(page, 'Edit');
  await chooseFile(page);
  await pickOption(page, 'Quality', '1k');
  await page.getByRole('textbox', { name: 'Instruction' }).fill("Paint the wall sage green, keep the floor's grain");
  await page.getByRole('button', { name: 'Add a pair' }).click();
  await page.getByLabel('Metadata key 1').fill('source');
  await page.getByLabel('Metadata value 1').fill('sdk tab');
  await page.getByRole('tab', { name: 'SDK' }).click();
  const code = (await page.getByTestId('code-sdk').textContent()) ?? '';
  expect(code).toContain("import Roomtone from '@roomtone/sdk';");
  expect(code).toContain('image: "room.jpg"');
  expect(code).not.toContain(demo.testKey);
  const played = await runToSuccess(page);

  // Run as copied, in a project where @roomtone/sdk is installed (here: linked to this repository's package).
  fs.mkdirSync(path.join(workDir, 'node_modules', '@roomtone'), { recursive: true });
  const link = path.join(workDir, 'node_modules', '@roomtone', 'sdk');
  if (!fs.existsSync(link)) fs.symlinkSync(path.resolve(import.meta.dirname, '..', 'sdk'), link, 'dir');
  fs.writeFileSync(path.join(workDir, 'copied.mjs'), code);
  const out = execFileSync(process.execPath, ['copied.mjs'], { cwd: workDir, env: { ...process.env, ROOMTONE_API_KEY: demo.testKey }, encoding: 'utf8', timeout: 300_000 });
  const created = JSON.parse(out) as ShownGeneration;
  expect(created.id).toMatch(/^gen_/);
  expect(created.id).not.toBe(played.id);
  expect(created.type).toBe('edit');
  expect(created.status).toBe('succeeded');
  expect(created.input).toEqual(played.input);
  expect(created.metadata).toEqual({ source: 'sdk tab' });
  expect(created.cost.amount).toBe(played.cost.amount);
});

test('replay from the log: a playground creation opens in the playground with its settings filled', async ({ page, demo }) => {
  await openPlayground(page, demo.organizationId);
  await chooseKind(page, 'Edit');
  await chooseFile(page);
  await pickOption(page, 'Quality', '1k');
  await page.getByRole('textbox', { name: 'Instruction' }).fill('Warmer light on the floor');
  await page.getByRole('button', { name: 'Add a pair' }).click();
  await page.getByLabel('Metadata key 1').fill('ticket');
  await page.getByLabel('Metadata value 1').fill('R-11');
  const played = await runToSuccess(page);
  const requestId = (await page.getByTestId('request-id').textContent()) ?? '';
  expect(requestId).toMatch(/^req_/);

  await page.getByRole('link', { name: 'Request log' }).click();
  await page.getByLabel('Find a request by its id').fill(requestId);
  await expect(async () => {
    await page.getByRole('button', { name: 'Find' }).click();
    await expect(page.getByRole('row', { name: new RegExp(requestId) })).toBeVisible({ timeout: 8_000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByRole('row', { name: new RegExp(requestId) })).toContainText('/playground/edits');
  await page.getByRole('row', { name: new RegExp(requestId) }).click();
  await page.getByTestId('request-detail').getByRole('link', { name: 'Open in playground' }).click();
  // The playground rewrites its address with the settings at once (replaceState), so the replay
  // is found by its note, not by waiting for the link's exact URL.
  await page.waitForURL(/\/playground\?/);
  await expect(page.getByTestId('replay-note')).toContainText(played.id);
  await expect(page.getByRole('radiogroup', { name: 'Kind of creation' }).getByRole('radio', { name: 'Edit', exact: true })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('textbox', { name: 'Instruction' })).toHaveValue('Warmer light on the floor');
  await expect(page.getByLabel('Metadata value 1')).toHaveValue('R-11');
  await expect(page.getByRole('combobox', { name: 'Quality' })).toHaveText('1k');
  await expectAccessible(page, 'playground replay');
  await screenshot(page, 'playground-replay-light');
});

test('the material picker: a loading state while the materials come, name matches first, and "no match" said in words', async ({ page, demo }) => {
  await openPlayground(page, demo.organizationId);
  await chooseKind(page, 'Edit');
  await chooseFile(page);
  await page.getByRole('radio', { name: 'By painted areas (mask and layers)' }).check();
  await page.getByRole('radio', { name: 'Colour #FF0000' }).click();
  await paint(page, [0.1, 0.2], [0.5, 0.4]);
  await page.getByRole('button', { name: 'Add a layer for #FF0000' }).click();
  await page.getByRole('radio', { name: 'Material', exact: true }).check();

  // The list is held until its loading state has been seen (and scanned).
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const materialsRead = /\/api\/trpc\/[^?]*playground\.materials(,|\?)/;
  await page.route(materialsRead, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Choose a material' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose a material' });
  const loading = dialog.getByRole('status', { name: 'Loading materials' });
  await expect(loading).toBeVisible();
  await expectAccessible(page, 'material picker, loading');
  release(); // later reads pass at once
  const list = dialog.getByRole('list', { name: 'Materials' });
  await expect(list.getByRole('listitem').first()).toBeVisible();
  await expect(loading).toHaveCount(0);

  // A name match comes before the materials of a matching category.
  await dialog.getByRole('textbox', { name: 'Search materials' }).fill('leather');
  await expect(list.getByRole('listitem').first()).toContainText(/leather/i);
  await expect(list).toHaveAttribute('aria-busy', 'false');

  // Nothing matches: said in words, with a way back to every material; axe in both themes.
  await dialog.getByRole('textbox', { name: 'Search materials' }).fill('zzqx');
  const noMatch = dialog.getByTestId('materials-no-match');
  await expect(noMatch).toContainText('No material matches “zzqx”.');
  await expect(list).toHaveCount(0);
  for (const theme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveClass(new RegExp(theme));
    await expectAccessible(page, `material picker, no match (${theme})`, theme === 'dark' ? 'colours' : 'all');
  }
  await noMatch.getByRole('button', { name: 'Show every material' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Search materials' })).toHaveValue('');
  await expect(list.getByRole('listitem').first()).toBeVisible();
  await list.getByRole('button').first().click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('layer-#FF0000')).not.toContainText('No material chosen');
});
