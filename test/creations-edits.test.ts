// @node-lines same: our /v1 rules and records through the server; its HTTP edge runs under both lines in test/hostile-input.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
/**
 * POST /v1/edits: every validation rule of the spec (prompt, mask mode, layer object, mask
 * file, metadata, moderation in live mode), each with the exact status, code and param, plus
 * what an accepted edit's `input` holds and one mask edit run to the end.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { db } from '@/server/platform/db';
import { createTestOrg, testIp, type ApiResult, type TestOrg } from './support';
import {
  expectAccepted,
  expectError,
  form,
  halves,
  ledgerSnapshot,
  maskPng,
  noiseImage,
  post,
  readGeneration,
  restoreServedFiles,
  serve,
  waitForEnd,
  type ApiGeneration,
  type MaskRect,
} from './images-support';

const ip = testIp();

const RED = '#FF0000';
const LIME = '#CCFF00';
const GREEN = '#00FF66';
const BLUE = '#0066FF';
const VIOLET = '#CC00FF';

let org: TestOrg;
let image: Buffer; // 1024×768 JPEG
let imageUrl: string;
let redMask: string; // whole image red
let redBlueMask: string; // left red, right blue
let threeMask: string; // red, lime, blue thirds
let usableMaterial: string;
let withdrawnMaterial: string;

beforeAll(async () => {
  org = await createTestOrg();
  image = await noiseImage(1024, 768);
  imageUrl = serve(image, 'jpg');
  redMask = serve(await maskPng(1024, 768, halves(1024, 768, RED)), 'png');
  redBlueMask = serve(await maskPng(1024, 768, halves(1024, 768, RED, BLUE)), 'png');
  threeMask = serve(
    await maskPng(1024, 768, [
      { x: 0, y: 0, w: 341, h: 768, color: RED },
      { x: 341, y: 0, w: 341, h: 768, color: LIME },
      { x: 682, y: 0, w: 342, h: 768, color: BLUE },
    ]),
    'png',
  );
  const usable = await db().editMaterial.findFirst({ where: { withdrawn: false }, orderBy: { sort: 'asc' } });
  const withdrawn = await db().editMaterial.findFirst({ where: { withdrawn: true }, orderBy: { sort: 'asc' } });
  if (!usable || !withdrawn) throw new Error('the catalogue needs a usable and a withdrawn material');
  usableMaterial = usable.id;
  withdrawnMaterial = withdrawn.id;
});

// The served files live in a directory other test runs may empty.
beforeEach(() => restoreServedFiles());

type Body = Record<string, unknown>;

function edit(body: Body, key = org.testKey): Promise<ApiResult<unknown>> {
  return post('/v1/edits', key, ip, body);
}

function promptEdit(extra: Body = {}, key = org.testKey): Promise<ApiResult<unknown>> {
  return edit({ image: imageUrl, mode: 'prompt', quality: '1k', prompt: 'Paint the walls a warm white', background: true, ...extra }, key);
}

function maskEdit(layers: unknown, extra: Body = {}, key = org.testKey): Promise<ApiResult<unknown>> {
  return edit({ image: imageUrl, mode: 'mask', quality: '1k', mask: redMask, layers, background: true, ...extra }, key);
}

const remove = (mask_color: string) => ({ mask_color, action: 'remove' });

describe('POST /v1/edits: prompt', () => {
  it('accepts 1000 code points, ASCII or emoji (2000 UTF-16 units)', async () => {
    await expectAccepted(await promptEdit({ prompt: 'a'.repeat(1000) }), org.testKey, ip, 'edit');
    const emoji = '🛋'.repeat(1000);
    expect(emoji.length).toBe(2000);
    await expectAccepted(await promptEdit({ prompt: emoji }), org.testKey, ip, 'edit');
  });

  it('refuses 1001 code points: 400 parameter_invalid prompt', async () => {
    expectError(await promptEdit({ prompt: 'a'.repeat(1001) }), 400, 'parameter_invalid', 'prompt');
    expectError(await promptEdit({ prompt: '🛋'.repeat(1001) }), 400, 'parameter_invalid', 'prompt');
  });

  it('allows line breaks and tabs, and any language', async () => {
    for (const prompt of ['Paint the walls white.\nKeep the floor.\r\n\tAnd the beams.', 'Peindre les murs en blanc cassé', '壁を白く塗ってください', 'اجعل الجدران بيضاء', 'Покрасьте стены в белый цвет']) {
      const gen = await expectAccepted(await promptEdit({ prompt }), org.testKey, ip, 'edit');
      expect(gen.input.prompt).toBe(prompt);
    }
  });

  it.each([
    ['empty', ''],
    ['spaces only', '    '],
    ['line breaks and tabs only', '\n\t\r\n'],
    ['no-break spaces only', '\u00a0\u3000'],
    ['NUL', 'Paint\u0000 the walls'],
    ['BEL', 'Paint the walls\u0007'],
    ['ESC', '\u001b[31mPaint the walls'],
    ['DEL', 'Paint\u007f the walls'],
    ['C1 control', 'Paint\u0085 the walls'],
    ['vertical tab', 'Paint\u000b the walls'],
    ['zero width space', 'Paint\u200b the walls'],
    ['zero width non-joiner', 'Paint\u200c the walls'],
    ['zero width joiner', 'Pa\u200dint the walls'],
    ['word joiner', 'Paint\u2060 the walls'],
    ['byte order mark', '\ufeffPaint the walls'],
    ['left-to-right mark', 'Paint\u200e the walls'],
    ['right-to-left mark', 'Paint\u200f the walls'],
    ['right-to-left override', 'Paint the \u202ellaw'],
    ['left-to-right embedding', '\u202aPaint the walls\u202c'],
    ['first strong isolate', '\u2068Paint the walls\u2069'],
    ['arabic letter mark', 'Paint\u061c the walls'],
  ])('refuses %s: 400 parameter_invalid prompt', async (_what, prompt) => {
    expectError(await promptEdit({ prompt }), 400, 'parameter_invalid', 'prompt');
  });

  it('refuses a prompt that is not a string: 400 parameter_invalid prompt', async () => {
    expectError(await promptEdit({ prompt: 42 }), 400, 'parameter_invalid', 'prompt');
    expectError(await promptEdit({ prompt: ['Paint the walls'] }), 400, 'parameter_invalid', 'prompt');
  });

  it('requires prompt in prompt mode: 400 parameter_invalid prompt', async () => {
    expectError(await edit({ image: imageUrl, mode: 'prompt', quality: '1k', background: true }), 400, 'parameter_invalid', 'prompt');
  });

  it('refuses prompt in mask mode: 400 parameter_invalid prompt', async () => {
    expectError(await maskEdit([remove(RED)], { prompt: 'Remove the sofa' }), 400, 'parameter_invalid', 'prompt');
  });

  it('refuses layers in prompt mode: 400 parameter_invalid layers', async () => {
    expectError(await promptEdit({ layers: [remove(RED)], mask: redMask }), 400, 'parameter_invalid', 'layers');
    expectError(await promptEdit({ layers: [] }), 400, 'parameter_invalid', 'layers');
  });

  it('accepts prompt mode without a mask, and with a mask painted in exactly one colour', async () => {
    await expectAccepted(await promptEdit(), org.testKey, ip, 'edit');
    await expectAccepted(await promptEdit({ mask: redMask }), org.testKey, ip, 'edit');
    const blueArea = serve(await maskPng(1024, 768, [{ x: 100, y: 100, w: 300, h: 200, color: BLUE }]), 'png');
    await expectAccepted(await promptEdit({ mask: blueArea }), org.testKey, ip, 'edit');
  });

  it('refuses a prompt-mode mask with two painted colours, or none: 400 mask_colors_mismatch mask', async () => {
    expectError(await promptEdit({ mask: redBlueMask }), 400, 'mask_colors_mismatch', 'mask');
    const empty = serve(await maskPng(1024, 768, []), 'png');
    expectError(await promptEdit({ mask: empty }), 400, 'mask_colors_mismatch', 'mask');
  });

  it('keeps the prompt unchanged in input', async () => {
    const prompt = '  Replace the rug with a round jute rug  ';
    const gen = await expectAccepted(await promptEdit({ prompt }), org.testKey, ip, 'edit');
    expect(gen.input).toEqual({ quality: '1k', scale: null, mode: 'prompt', prompt });
  });
});

describe('POST /v1/edits: mode, quality and fields', () => {
  it('requires mode: 400 parameter_invalid mode', async () => {
    expectError(await edit({ image: imageUrl, quality: '1k', prompt: 'Paint the walls white', background: true }), 400, 'parameter_invalid', 'mode');
  });

  it.each(['magic', 'Prompt', '', 'MASK'])('refuses mode %j: 400 parameter_invalid mode', async (mode) => {
    expectError(await promptEdit({ mode }), 400, 'parameter_invalid', 'mode');
  });

  it('requires quality: 400 parameter_invalid quality', async () => {
    expectError(await edit({ image: imageUrl, mode: 'prompt', prompt: 'Paint the walls white', background: true }), 400, 'parameter_invalid', 'quality');
  });

  it.each(['16k', '1K', '', 'x2'])('refuses quality %j: 400 parameter_invalid quality', async (quality) => {
    expectError(await promptEdit({ quality }), 400, 'parameter_invalid', 'quality');
  });

  it('requires image: 400 parameter_invalid image', async () => {
    expectError(await edit({ mode: 'prompt', quality: '1k', prompt: 'Paint the walls white', background: true }), 400, 'parameter_invalid', 'image');
  });

  it('refuses an unknown field: 400 parameter_invalid naming it', async () => {
    expectError(await promptEdit({ strength: 0.5 }), 400, 'parameter_invalid', 'strength');
    expectError(await promptEdit({ scale: 'x2' }), 400, 'parameter_invalid', 'scale');
  });

  it('refuses background that is not a boolean: 400 parameter_invalid background', async () => {
    expectError(await promptEdit({ background: 'true' }), 400, 'parameter_invalid', 'background');
  });
});

describe('POST /v1/edits: mask mode and layers', () => {
  it('requires mask: 400 parameter_invalid mask', async () => {
    expectError(await edit({ image: imageUrl, mode: 'mask', quality: '1k', layers: [remove(RED)], background: true }), 400, 'parameter_invalid', 'mask');
  });

  it('requires layers: 400 parameter_invalid layers', async () => {
    expectError(await edit({ image: imageUrl, mode: 'mask', quality: '1k', mask: redMask, background: true }), 400, 'parameter_invalid', 'layers');
  });

  it('takes 1 to 3 layers: 0 or 4 are 400 parameter_invalid layers', async () => {
    expectError(await maskEdit([]), 400, 'parameter_invalid', 'layers');
    expectError(await maskEdit([remove(RED), remove(LIME), remove(BLUE), remove(GREEN)], { mask: threeMask }), 400, 'parameter_invalid', 'layers');
    expectError(await maskEdit(remove(RED)), 400, 'parameter_invalid', 'layers');
  });

  it('accepts 3 layers, one per painted colour', async () => {
    await expectAccepted(await maskEdit([remove(RED), remove(LIME), remove(BLUE)], { mask: threeMask }), org.testKey, ip, 'edit');
  });

  it.each([['#123456'], ['#FF0001'], ['red'], ['FF0000'], ['#F00'], [''], [16711680]])('refuses mask_color %j outside the palette: 400 parameter_invalid layers[0].mask_color', async (color) => {
    expectError(await maskEdit([{ mask_color: color, action: 'remove' }]), 400, 'parameter_invalid', 'layers[0].mask_color');
  });

  it('requires mask_color: 400 parameter_invalid layers[0].mask_color', async () => {
    expectError(await maskEdit([{ action: 'remove' }]), 400, 'parameter_invalid', 'layers[0].mask_color');
  });

  it('refuses a colour used by two layers: 400 parameter_invalid layers[1].mask_color', async () => {
    expectError(await maskEdit([remove(RED), remove(RED)]), 400, 'parameter_invalid', 'layers[1].mask_color');
    expectError(await maskEdit([remove(RED), remove('#ff0000')]), 400, 'parameter_invalid', 'layers[1].mask_color');
    expectError(await maskEdit([remove(RED), remove(BLUE), remove(BLUE)], { mask: threeMask }), 400, 'parameter_invalid', 'layers[2].mask_color');
  });

  it('accepts a lowercase mask_color and stores it uppercase in input', async () => {
    const gen = await expectAccepted(await maskEdit([{ mask_color: '#ff0000', action: 'remove' }]), org.testKey, ip, 'edit');
    expect(gen.input.layers).toEqual([{ mask_color: RED, action: 'remove' }]);
    const mixed = await expectAccepted(
      await maskEdit([{ mask_color: '#cc00ff', action: 'remove' }], { mask: serve(await maskPng(1024, 768, halves(1024, 768, VIOLET)), 'png') }),
      org.testKey,
      ip,
      'edit',
    );
    expect(mixed.input.layers).toEqual([{ mask_color: VIOLET, action: 'remove' }]);
  });

  it.each([['paint'], ['Remove'], [''], [null]])('refuses action %j: 400 parameter_invalid layers[0].action', async (action) => {
    expectError(await maskEdit([{ mask_color: RED, action }]), 400, 'parameter_invalid', 'layers[0].action');
  });

  it('requires action: 400 parameter_invalid layers[0].action', async () => {
    expectError(await maskEdit([{ mask_color: RED }]), 400, 'parameter_invalid', 'layers[0].action');
  });

  it('refuses a field of another action: 400 parameter_invalid naming it', async () => {
    const element = serve(await noiseImage(100, 100, 'png'), 'png');
    expectError(await maskEdit([{ mask_color: RED, action: 'remove', color: '#336699' }]), 400, 'parameter_invalid', 'layers[0].color');
    expectError(await maskEdit([{ mask_color: RED, action: 'remove', material: usableMaterial }]), 400, 'parameter_invalid', 'layers[0].material');
    expectError(await maskEdit([{ mask_color: RED, action: 'remove', element }]), 400, 'parameter_invalid', 'layers[0].element');
    expectError(await maskEdit([{ mask_color: RED, action: 'remove', finish: 'wood' }]), 400, 'parameter_invalid', 'layers[0].finish');
    expectError(await maskEdit([{ mask_color: RED, action: 'add', element, color: '#336699' }]), 400, 'parameter_invalid', 'layers[0].color');
    expectError(await maskEdit([{ mask_color: RED, action: 'replace', element, material: usableMaterial }]), 400, 'parameter_invalid', 'layers[0].material');
    expectError(await maskEdit([{ mask_color: RED, action: 'modify', color: '#336699', element }]), 400, 'parameter_invalid', 'layers[0].element');
    expectError(await maskEdit([{ mask_color: RED, action: 'modify', color: '#336699', opacity: 0.5 }]), 400, 'parameter_invalid', 'layers[0].opacity');
    expectError(
      await maskEdit([remove(RED), { mask_color: BLUE, action: 'remove', color: '#336699' }], { mask: redBlueMask }),
      400,
      'parameter_invalid',
      'layers[1].color',
    );
  });

  it('refuses modify with both material and color: 400 parameter_invalid layers[0].color', async () => {
    expectError(await maskEdit([{ mask_color: RED, action: 'modify', material: usableMaterial, color: '#336699' }]), 400, 'parameter_invalid', 'layers[0].color');
  });

  it('refuses modify with neither material nor color: 400 parameter_invalid layers[0].material', async () => {
    expectError(await maskEdit([{ mask_color: RED, action: 'modify' }]), 400, 'parameter_invalid', 'layers[0].material');
  });

  it('refuses finish without color: 400 parameter_invalid layers[0].finish', async () => {
    expectError(await maskEdit([{ mask_color: RED, action: 'modify', material: usableMaterial, finish: 'wood' }]), 400, 'parameter_invalid', 'layers[0].finish');
  });

  it.each([['shiny'], ['Wood'], ['']])('refuses finish %j: 400 parameter_invalid layers[0].finish', async (finish) => {
    expectError(await maskEdit([{ mask_color: RED, action: 'modify', color: '#336699', finish }]), 400, 'parameter_invalid', 'layers[0].finish');
  });

  it.each([['#12345'], ['336699'], ['red'], ['#GGGGGG'], ['#3366991']])('refuses color %j: 400 parameter_invalid layers[0].color', async (color) => {
    expectError(await maskEdit([{ mask_color: RED, action: 'modify', color }]), 400, 'parameter_invalid', 'layers[0].color');
  });

  it('accepts every finish with a color', async () => {
    const finishes = ['default', 'solid_glossy', 'solid_matte', 'wood', 'stone', 'metal', 'fabric', 'concrete'];
    for (const finish of finishes) {
      const gen = await expectAccepted(await maskEdit([{ mask_color: RED, action: 'modify', color: '#336699', finish }]), org.testKey, ip, 'edit');
      expect(gen.input.layers).toEqual([{ mask_color: RED, action: 'modify', color: '#336699', finish }]);
    }
  });

  it('defaults finish to "default" and uppercases the color in input', async () => {
    const gen = await expectAccepted(await maskEdit([{ mask_color: '#ff0000', action: 'modify', color: '#a1b2c3' }]), org.testKey, ip, 'edit');
    expect(gen.input.layers).toEqual([{ mask_color: RED, action: 'modify', color: '#A1B2C3', finish: 'default' }]);
  });

  it('requires element with add and replace: 400 parameter_invalid layers[0].element', async () => {
    expectError(await maskEdit([{ mask_color: RED, action: 'add' }]), 400, 'parameter_invalid', 'layers[0].element');
    expectError(await maskEdit([{ mask_color: RED, action: 'replace' }]), 400, 'parameter_invalid', 'layers[0].element');
    expectError(await maskEdit([remove(RED), { mask_color: BLUE, action: 'add' }], { mask: redBlueMask }), 400, 'parameter_invalid', 'layers[1].element');
  });

  it('accepts add and replace with an element (URL or file), without returning it', async () => {
    const elementBytes = await noiseImage(120, 160, 'png');
    const elementUrl = serve(elementBytes, 'png');
    const gen = await expectAccepted(
      await maskEdit(
        [
          { mask_color: RED, action: 'add', element: elementUrl },
          { mask_color: BLUE, action: 'replace', element: elementUrl },
        ],
        { mask: redBlueMask },
      ),
      org.testKey,
      ip,
      'edit',
    );
    expect(gen.input.layers).toEqual([
      { mask_color: RED, action: 'add' },
      { mask_color: BLUE, action: 'replace' },
    ]);
    expect(JSON.stringify(gen)).not.toContain(elementUrl);
    const viaFile = await post(
      '/v1/edits',
      org.testKey,
      ip,
      form([
        ['image', image],
        ['mode', 'mask'],
        ['quality', '1k'],
        ['mask', await maskPng(1024, 768, halves(1024, 768, RED))],
        ['layers', JSON.stringify([{ mask_color: RED, action: 'replace' }])],
        ['layers[0].element', elementBytes],
        ['background', 'true'],
      ]),
    );
    await expectAccepted(viaFile, org.testKey, ip, 'edit');
  });

  it('refuses an unknown material: 404 resource_not_found layers[0].material', async () => {
    expectError(await maskEdit([{ mask_color: RED, action: 'modify', material: 'mat_does_not_exist' }]), 404, 'resource_not_found', 'layers[0].material');
    expectError(
      await maskEdit([remove(RED), { mask_color: BLUE, action: 'modify', material: 'mat_nope' }], { mask: redBlueMask }),
      404,
      'resource_not_found',
      'layers[1].material',
    );
  });

  it('refuses a withdrawn material: 404 resource_not_found layers[0].material', async () => {
    expectError(await maskEdit([{ mask_color: RED, action: 'modify', material: withdrawnMaterial }]), 404, 'resource_not_found', 'layers[0].material');
  });

  it('accepts a listed material and keeps it in input', async () => {
    const gen = await expectAccepted(await maskEdit([{ mask_color: RED, action: 'modify', material: usableMaterial }]), org.testKey, ip, 'edit');
    expect(gen.input.layers).toEqual([{ mask_color: RED, action: 'modify', material: usableMaterial }]);
  });
});

describe('POST /v1/edits: the mask file', () => {
  async function maskFor(width: number, height: number, rects?: MaskRect[]): Promise<string> {
    return serve(await maskPng(width, height, rects ?? halves(width, height, RED)), 'png');
  }

  it('refuses a JPEG mask: 400 mask_invalid mask', async () => {
    const jpeg = await sharp({ create: { width: 1024, height: 768, channels: 3, background: RED } }).jpeg().toBuffer();
    expectError(await maskEdit([remove(RED)], { mask: serve(jpeg, 'png') }), 400, 'mask_invalid', 'mask');
  });

  it('refuses a WebP mask and a mask that is no image: 400 mask_invalid mask', async () => {
    const webp = await sharp({ create: { width: 1024, height: 768, channels: 4, background: RED } }).webp({ lossless: true }).toBuffer();
    expectError(await maskEdit([remove(RED)], { mask: serve(webp, 'png') }), 400, 'mask_invalid', 'mask');
    expectError(await maskEdit([remove(RED)], { mask: serve('not a png at all', 'png') }), 400, 'mask_invalid', 'mask');
  });

  it('refuses a cut PNG mask: 400 mask_invalid mask', async () => {
    const png = await maskPng(1024, 768, [{ x: 0, y: 0, w: 1024, h: 768, color: RED, alpha: 200 }, { x: 10, y: 10, w: 500, h: 500, color: BLUE }]);
    expectError(await maskEdit([remove(RED)], { mask: serve(png.subarray(0, Math.floor(png.length / 2)), 'png') }), 400, 'mask_invalid', 'mask');
  });

  it('refuses proportions 2% off: 400 mask_dimensions_mismatch mask', async () => {
    // 1024×768 is 4:3; 1024×753 is 1.99% wider.
    expectError(await maskEdit([remove(RED)], { mask: await maskFor(1024, 753) }), 400, 'mask_dimensions_mismatch', 'mask');
    expectError(await maskEdit([remove(RED)], { mask: await maskFor(1024, 784) }), 400, 'mask_dimensions_mismatch', 'mask');
    expectError(await maskEdit([remove(RED)], { mask: await maskFor(768, 1024) }), 400, 'mask_dimensions_mismatch', 'mask');
  });

  it('accepts proportions within 1%, and another size (brought to the image size)', async () => {
    await expectAccepted(await maskEdit([remove(RED)], { mask: await maskFor(1024, 764) }), org.testKey, ip, 'edit');
    await expectAccepted(await maskEdit([remove(RED)], { mask: await maskFor(1030, 768) }), org.testKey, ip, 'edit');
    await expectAccepted(await maskEdit([remove(RED)], { mask: await maskFor(2048, 1536) }), org.testKey, ip, 'edit');
    await expectAccepted(await maskEdit([remove(RED)], { mask: await maskFor(512, 384) }), org.testKey, ip, 'edit');
  });

  it('refuses a long side under 512 for a larger image: 400 mask_dimensions_mismatch mask', async () => {
    expectError(await maskEdit([remove(RED)], { mask: await maskFor(511, 383) }), 400, 'mask_dimensions_mismatch', 'mask');
    expectError(await maskEdit([remove(RED)], { mask: await maskFor(256, 192) }), 400, 'mask_dimensions_mismatch', 'mask');
  });

  it('for an image smaller than 512, takes a mask of the image size and refuses a smaller one', async () => {
    const small = serve(await noiseImage(300, 200), 'jpg');
    await expectAccepted(await maskEdit([remove(RED)], { image: small, mask: await maskFor(300, 200) }), org.testKey, ip, 'edit');
    await expectAccepted(await maskEdit([remove(RED)], { image: small, mask: await maskFor(600, 400) }), org.testKey, ip, 'edit');
    expectError(await maskEdit([remove(RED)], { image: small, mask: await maskFor(150, 100) }), 400, 'mask_dimensions_mismatch', 'mask');
    expectError(await maskEdit([remove(RED)], { image: small, mask: await maskFor(299, 199) }), 400, 'mask_dimensions_mismatch', 'mask');
  });

  it('compares proportions after the image EXIF orientation', async () => {
    // Stored 1024×768 with orientation 6: the image is 768×1024 once straightened.
    const rotated = serve(await sharp(image).withMetadata({ orientation: 6 }).jpeg().toBuffer(), 'jpg');
    await expectAccepted(await maskEdit([remove(RED)], { image: rotated, mask: await maskFor(768, 1024) }), org.testKey, ip, 'edit');
    expectError(await maskEdit([remove(RED)], { image: rotated, mask: await maskFor(1024, 768) }), 400, 'mask_dimensions_mismatch', 'mask');
  });

  it('refuses a layer colour that is not painted: 400 mask_colors_mismatch layers[i].mask_color', async () => {
    expectError(await maskEdit([remove(BLUE)]), 400, 'mask_colors_mismatch', 'layers[0].mask_color');
    expectError(await maskEdit([remove(RED), remove(BLUE)]), 400, 'mask_colors_mismatch', 'layers[1].mask_color');
  });

  it('refuses a painted colour without a layer: 400 mask_colors_mismatch mask', async () => {
    expectError(await maskEdit([remove(RED)], { mask: redBlueMask }), 400, 'mask_colors_mismatch', 'mask');
    expectError(await maskEdit([remove(RED), remove(BLUE)], { mask: threeMask }), 400, 'mask_colors_mismatch', 'mask');
  });

  it('counts a colour covering under 0.01% of the pixels as not painted', async () => {
    // 8×8 = 64 pixels of 786,432 is 0.008%.
    const speck = await maskFor(1024, 768, [
      { x: 0, y: 0, w: 512, h: 768, color: RED },
      { x: 900, y: 600, w: 8, h: 8, color: LIME },
    ]);
    await expectAccepted(await maskEdit([remove(RED)], { mask: speck }), org.testKey, ip, 'edit');
    expectError(await maskEdit([remove(RED), remove(LIME)], { mask: speck }), 400, 'mask_colors_mismatch', 'layers[1].mask_color');
    // 10×10 = 100 pixels is 0.0127%: painted.
    const patch = await maskFor(1024, 768, [
      { x: 0, y: 0, w: 512, h: 768, color: RED },
      { x: 900, y: 600, w: 10, h: 10, color: LIME },
    ]);
    expectError(await maskEdit([remove(RED)], { mask: patch }), 400, 'mask_colors_mismatch', 'mask');
    await expectAccepted(await maskEdit([remove(RED), remove(LIME)], { mask: patch }), org.testKey, ip, 'edit');
  });

  it('reads a pixel as painted within 48 per channel and at least 50% opaque', async () => {
    // #D03030 is within 48 of #FF0000 on each channel; blue at alpha 100 (< 50%) is transparent.
    const mask = await maskFor(1024, 768, [
      { x: 0, y: 0, w: 512, h: 768, color: '#D03030' },
      { x: 512, y: 0, w: 512, h: 768, color: BLUE, alpha: 100 },
    ]);
    await expectAccepted(await maskEdit([remove(RED)], { mask }), org.testKey, ip, 'edit');
    expectError(await maskEdit([remove(RED), remove(BLUE)], { mask }), 400, 'mask_colors_mismatch', 'layers[1].mask_color');
    // #C03030 is 63 away on red: not painted at all.
    const far = await maskFor(1024, 768, [{ x: 0, y: 0, w: 512, h: 768, color: '#C03030' }]);
    expectError(await maskEdit([remove(RED)], { mask: far }), 400, 'mask_colors_mismatch', 'layers[0].mask_color');
  });

  it('lets a colour cover several areas', async () => {
    const mask = await maskFor(1024, 768, [
      { x: 0, y: 0, w: 200, h: 200, color: RED },
      { x: 700, y: 500, w: 200, h: 200, color: RED },
      { x: 400, y: 300, w: 100, h: 100, color: GREEN },
    ]);
    await expectAccepted(await maskEdit([remove(RED), { mask_color: GREEN, action: 'modify', color: '#202020' }], { mask }), org.testKey, ip, 'edit');
  });
});

describe('POST /v1/edits: input of an accepted edit', () => {
  it('holds settings only: uppercase colours, default finish, material, no images', async () => {
    const element = serve(await noiseImage(100, 100, 'png'), 'png');
    const gen = await expectAccepted(
      await maskEdit(
        [
          { mask_color: '#ff0000', action: 'modify', color: '#abcdef' },
          { mask_color: '#ccff00', action: 'modify', material: usableMaterial },
          { mask_color: '#0066ff', action: 'add', element },
        ],
        { mask: threeMask, quality: '2k', metadata: { room: 'living' } },
      ),
      org.testKey,
      ip,
      'edit',
    );
    expect(gen.input).toEqual({
      quality: '2k',
      scale: null,
      mode: 'mask',
      layers: [
        { mask_color: RED, action: 'modify', color: '#ABCDEF', finish: 'default' },
        { mask_color: LIME, action: 'modify', material: usableMaterial },
        { mask_color: BLUE, action: 'add' },
      ],
    });
    const text = JSON.stringify(gen);
    for (const url of [imageUrl, threeMask, element]) expect(text).not.toContain(url);
    expect(gen.metadata).toEqual({ room: 'living' });
    // The same on a later read.
    const read = await readGeneration(gen.id, org.testKey, ip);
    expect(read.input).toEqual(gen.input);
  });

  it('holds the prompt of a prompt edit', async () => {
    const gen = await expectAccepted(await promptEdit({ prompt: 'Add a reading lamp next to the sofa', mask: redMask, quality: '4k' }), org.testKey, ip, 'edit');
    expect(gen.input).toEqual({ quality: '4k', scale: null, mode: 'prompt', prompt: 'Add a reading lamp next to the sofa' });
  });
});

describe('POST /v1/edits: metadata', () => {
  const pairs = (n: number): Record<string, string> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`key_${i}`, `value ${i}`]));

  it('accepts 16 pairs and returns them unchanged, also on read', async () => {
    const metadata = { ...pairs(14), ['k'.repeat(40)]: 'v'.repeat(500), 'ünïcødé 🛋': 'café — «ok»' };
    expect(Object.keys(metadata)).toHaveLength(16);
    const gen = await expectAccepted(await promptEdit({ metadata }), org.testKey, ip, 'edit');
    expect(gen.metadata).toEqual(metadata);
    expect((await readGeneration(gen.id, org.testKey, ip)).metadata).toEqual(metadata);
  });

  it('gives {} without metadata', async () => {
    const gen = await expectAccepted(await promptEdit(), org.testKey, ip, 'edit');
    expect(gen.metadata).toEqual({});
  });

  it('refuses 17 pairs: 400 parameter_invalid metadata', async () => {
    expectError(await promptEdit({ metadata: pairs(17) }), 400, 'parameter_invalid', 'metadata');
  });

  /** Every metadata refusal names `metadata`; the message names the offending key. */
  function expectMetadataRefused(res: ApiResult<unknown>, key: string): void {
    expectError(res, 400, 'parameter_invalid', 'metadata');
    if (key) expect((res.body as { error: { message: string } }).error.message).toContain(`'${key.slice(0, 50)}'`);
  }

  it('refuses a key of 41 characters, and an empty key: 400 parameter_invalid on metadata', async () => {
    const long = 'k'.repeat(41);
    expectMetadataRefused(await promptEdit({ metadata: { [long]: 'v' } }), long);
    expectMetadataRefused(await promptEdit({ metadata: { '': 'v' } }), '');
  });

  it('refuses a value of 501 characters: 400 parameter_invalid on metadata', async () => {
    expectMetadataRefused(await promptEdit({ metadata: { note: 'v'.repeat(501) } }), 'note');
  });

  it.each([
    ['number', 42],
    ['boolean', true],
    ['null', null],
    ['object', { a: 'b' }],
    ['array', ['a']],
  ])('refuses a %s value: 400 parameter_invalid on metadata', async (_what, value) => {
    expectMetadataRefused(await promptEdit({ metadata: { note: value } }), 'note');
  });

  it('refuses metadata that is not an object: 400 parameter_invalid metadata', async () => {
    expectError(await promptEdit({ metadata: 'order=42' }), 400, 'parameter_invalid', 'metadata');
    expectError(await promptEdit({ metadata: [['order', '42']] }), 400, 'parameter_invalid', 'metadata');
  });
});

describe('POST /v1/edits: live mode', () => {
  it('moderates the instruction before any charge: 422 content_policy_violation, nothing charged', async () => {
    const live = await createTestOrg({ credit: 5_000 });
    const before = await ledgerSnapshot(live.id);
    const res = await promptEdit({ prompt: 'add a naked woman on the bed' }, live.liveKey);
    expectError(res, 422, 'content_policy_violation', 'prompt');
    expect(await ledgerSnapshot(live.id)).toEqual(before);
  });

  it('does not moderate in test mode: the same instruction is accepted', async () => {
    await expectAccepted(await promptEdit({ prompt: 'add a naked woman on the bed' }), org.testKey, ip, 'edit');
  });

  it('answers 503 mode_unavailable for an acceptable prompt edit (no generative backend), nothing charged', async () => {
    const live = await createTestOrg({ credit: 5_000 });
    const before = await ledgerSnapshot(live.id);
    expectError(await promptEdit({ prompt: 'Paint the walls a warm white' }, live.liveKey), 503, 'mode_unavailable');
    expectError(await promptEdit({ prompt: 'Add a plant in the corner', mask: redMask }, live.liveKey), 503, 'mode_unavailable');
    expect(await ledgerSnapshot(live.id)).toEqual(before);
  });

  it('validates before charging in live mode too', async () => {
    const live = await createTestOrg({ credit: 5_000 });
    const before = await ledgerSnapshot(live.id);
    expectError(await promptEdit({ prompt: 'Paint\u200b the walls' }, live.liveKey), 400, 'parameter_invalid', 'prompt');
    expectError(await maskEdit([remove(BLUE)], {}, live.liveKey), 400, 'mask_colors_mismatch', 'layers[0].mask_color');
    expectError(await maskEdit([{ mask_color: RED, action: 'modify', material: withdrawnMaterial }], {}, live.liveKey), 404, 'resource_not_found', 'layers[0].material');
    expect(await ledgerSnapshot(live.id)).toEqual(before);
  });

  it('charges an accepted live mask edit at acceptance (so the checks above can fail)', async () => {
    const live = await createTestOrg({ credit: 5_000 });
    const before = await ledgerSnapshot(live.id);
    const res = await maskEdit([{ mask_color: RED, action: 'modify', color: '#445566' }], {}, live.liveKey);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const gen = res.body as ApiGeneration;
    const after = await ledgerSnapshot(live.id);
    expect(gen.cost.amount).toBeGreaterThan(0);
    expect(after.balanceCents).toBe(before.balanceCents - gen.cost.amount);
    expect(after.generations).toBe(before.generations + 1);
    await waitForEnd(gen.id, live.liveKey, ip);
  });
});

describe('POST /v1/edits: a mask edit runs to the end', () => {
  it('modify with a colour succeeds synchronously with the size of the quality (1k: long side 1024)', { timeout: 240_000 }, async () => {
    const small = await noiseImage(640, 480);
    const res = await post<ApiGeneration>(
      '/v1/edits',
      org.testKey,
      ip,
      form([
        ['image', small],
        ['mode', 'mask'],
        ['quality', '1k'],
        ['mask', await maskPng(640, 480, [{ x: 100, y: 100, w: 300, h: 200, color: RED }])],
        ['layers', JSON.stringify([{ mask_color: RED, action: 'modify', color: '#336699', finish: 'solid_matte' }])],
        ['metadata', JSON.stringify({ job: 'sync' })],
      ]),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const gen = res.body;
    expect(gen).toMatchObject({ object: 'generation', type: 'edit', status: 'succeeded', error: null, metadata: { job: 'sync' } });
    expect(gen.output).toHaveLength(1);
    expect(gen.output[0]).toMatchObject({ width: 1024, height: 768 });
    const bytes = Buffer.from(await (await fetch(gen.output[0]!.url)).arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect([meta.width, meta.height]).toEqual([1024, 768]);
    // The painted area took the colour; outside it the image is kept.
    const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const mean = (x0: number, y0: number, x1: number, y1: number): [number, number, number] => {
      const sum = [0, 0, 0];
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const o = (y * info.width + x) * info.channels;
          for (let c = 0; c < 3; c++) sum[c] = (sum[c] ?? 0) + (data[o + c] ?? 0);
        }
      }
      const n = (x1 - x0) * (y1 - y0);
      return [(sum[0] ?? 0) / n, (sum[1] ?? 0) / n, (sum[2] ?? 0) / n];
    };
    // Painted area (100..400 × 100..300 in the 640×480 mask) is x 160..640, y 160..480 in the output.
    const inside = mean(300, 250, 500, 400);
    const outside = mean(800, 600, 1000, 740);
    expect(inside[2] - inside[0]).toBeGreaterThan(15); // blue-ish, as #336699
    expect(Math.abs(outside[2] - outside[0])).toBeLessThan(Math.abs(inside[2] - inside[0]));
  });
});
