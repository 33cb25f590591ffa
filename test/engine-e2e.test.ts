// @node-lines same: the built-in engine's results through the route; its worker threads run under both lines in src/server/capabilities/engine/builtin
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
/**
 * The built-in engine through the real route: every mask-mode operation and finish via
 * POST /v1/edits (multipart, test mode, synchronous), every upscale via /v1/upscales, checked
 * on the delivered image. Outputs are lossy WebP, so "unchanged" is measured with a tolerance
 * here; the byte-exact checks on raw pixels live in src/server/capabilities/engine/builtin/*.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { api, createTestOrg, testIp, type TestOrg } from './support';
import { makeElement, makeInteriorScene, paletteMaskImage, rectMask, type Scene } from './helpers/engine-scenes';
import { dilate, erode } from '@/server/capabilities/engine/builtin/masks';
import { deltaE2000, srgbBytesToLab } from '@/server/capabilities/engine/builtin/color';
import type { RawImage } from '@/server/capabilities/engine/builtin/types';

const ip = testIp();
const W = 1024;
const H = 768; // 1k quality keeps this size, so pixels compare one to one
let org: TestOrg;
let scene: Scene;
let sceneJpeg: Buffer;

async function encode(img: RawImage, format: 'png' | 'jpeg'): Promise<Buffer> {
  const s = sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength), { raw: { width: img.width, height: img.height, channels: img.channels } });
  return format === 'png' ? s.png().toBuffer() : s.jpeg({ quality: 95 }).toBuffer();
}

async function edit(layers: unknown[], mask: Buffer, files: Record<string, Buffer> = {}): Promise<Buffer> {
  const form = new FormData();
  form.set('image', new Blob([new Uint8Array(sceneJpeg)]), 'room.jpg');
  form.set('mask', new Blob([new Uint8Array(mask)]), 'mask.png');
  form.set('mode', 'mask');
  form.set('quality', '1k');
  form.set('layers', JSON.stringify(layers));
  for (const [name, bytes] of Object.entries(files)) form.set(name, new Blob([new Uint8Array(bytes)]), `${name}.png`);
  const res = await api<{ status: string; output: { url: string; width: number; height: number }[]; error: unknown }>('/v1/edits', { key: org.testKey, ip, rawBody: form });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.status, JSON.stringify(res.body.error)).toBe('succeeded');
  expect(res.body.output[0]).toMatchObject({ width: W, height: H });
  return Buffer.from(await (await fetch(res.body.output[0]!.url)).arrayBuffer());
}

async function raw(bytes: Buffer): Promise<Uint8Array> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([W, H]);
  return data;
}

/** Mean absolute channel difference between a and b over pixels where `where` is set. */
function meanDiff(a: Uint8Array, b: Uint8Array, where: Uint8Array): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < where.length; i++) {
    if (!where[i]) continue;
    for (let c = 0; c < 3; c++) sum += Math.abs(a[i * 3 + c]! - b[i * 3 + c]!);
    n += 3;
  }
  return sum / n;
}

function meanRgb(img: Uint8Array, where: Uint8Array): [number, number, number] {
  const s = [0, 0, 0];
  let n = 0;
  for (let i = 0; i < where.length; i++) {
    if (!where[i]) continue;
    for (let c = 0; c < 3; c++) s[c]! += img[i * 3 + c]!;
    n++;
  }
  // Rounded: the Lab conversion indexes an sRGB lookup table by byte value.
  return [Math.round(s[0]! / n), Math.round(s[1]! / n), Math.round(s[2]! / n)];
}

function stdLuma(img: Uint8Array, where: Uint8Array): number {
  const values: number[] = [];
  for (let i = 0; i < where.length; i++) if (where[i]) values.push(0.299 * img[i * 3]! + 0.587 * img[i * 3 + 1]! + 0.114 * img[i * 3 + 2]!);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
}

const not = (a: Uint8Array) => a.map((v) => (v ? 0 : 1));
const hex = (h: string): [number, number, number] => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];

let original: Uint8Array;
beforeAll(async () => {
  org = await createTestOrg();
  scene = makeInteriorScene(W, H);
  sceneJpeg = await encode(scene.image, 'jpeg');
  original = await raw(sceneJpeg);
});

describe('built-in engine through POST /v1/edits', () => {
  const target = '#2F6B4F';
  const finishes = ['default', 'solid_glossy', 'solid_matte', 'wood', 'stone', 'metal', 'fabric', 'concrete'] as const;

  it('modify + color, every finish: only the area changes, to the target colour, each finish differently', async () => {
    const mask = await encode(paletteMaskImage(scene, [{ region: 'sofa', color: '#FF0000' }]), 'png');
    const outputs = await Promise.all(finishes.map((finish) => edit([{ mask_color: '#FF0000', action: 'modify', color: target, finish }], mask).then(raw)));
    const area = erode(scene.regions.sofa, W, H, 4);
    const outside = not(dilate(scene.regions.sofa, W, H, 6));
    const targetLab = srgbBytesToLab(...hex(target));
    outputs.forEach((out, i) => {
      expect(meanDiff(out, original, outside), `${finishes[i]} outside`).toBeLessThan(3);
      const [r, g, b] = meanRgb(out, area);
      const dE = deltaE2000(srgbBytesToLab(r, g, b), targetLab);
      expect(dE, `${finishes[i]} ΔE2000`).toBeLessThan(finishes[i] === 'solid_glossy' || finishes[i] === 'metal' ? 20 : 12);
    });
    // The default finish keeps the texture and lighting variation of the original.
    expect(stdLuma(outputs[0]!, area)).toBeGreaterThan(0.5 * stdLuma(original, area));
    for (let i = 0; i < outputs.length; i++) {
      for (let j = i + 1; j < outputs.length; j++) expect(meanDiff(outputs[i]!, outputs[j]!, area), `${finishes[i]} vs ${finishes[j]}`).toBeGreaterThan(0.5);
    }
  });

  it('modify + material: the floor takes the material, with texture; the rest is unchanged', async () => {
    const mask = await encode(paletteMaskImage(scene, [{ region: 'floor', color: '#0066FF' }]), 'png');
    const out = await raw(await edit([{ mask_color: '#0066FF', action: 'modify', material: 'mat_oak_herringbone' }], mask));
    const area = erode(scene.regions.floor, W, H, 4);
    expect(meanDiff(out, original, not(dilate(scene.regions.floor, W, H, 6)))).toBeLessThan(3);
    expect(meanDiff(out, original, area)).toBeGreaterThan(8);
    expect(stdLuma(out, area)).toBeGreaterThan(4);
  });

  it('remove: the sofa area is filled from its surroundings, far from the sofa colour', async () => {
    const mask = await encode(paletteMaskImage(scene, [{ region: 'sofa', color: '#CC00FF' }]), 'png');
    const out = await raw(await edit([{ mask_color: '#CC00FF', action: 'remove' }], mask));
    const area = erode(scene.regions.sofa, W, H, 6);
    const filled = meanRgb(out, area);
    const sofa = scene.colors.sofa;
    const distance = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
    const ring = dilate(scene.regions.sofa, W, H, 24).map((v, i) => (v && !scene.regions.sofa[i] ? 1 : 0));
    expect(distance(filled, sofa)).toBeGreaterThan(40);
    expect(distance(filled, meanRgb(original, ring))).toBeLessThan(45);
  });

  it('add: a plant (background removed) appears in the painted floor area; outside is unchanged', async () => {
    const spot = rectMask(W, H, { x0: 0.06, y0: 0.55, x1: 0.22, y1: 0.95 });
    const mask = await encode(paletteMaskImage(scene, [{ region: spot, color: '#00FF66' }]), 'png');
    const plant = await encode(makeElement('plant', 300, 500, 'plain'), 'png');
    const out = await raw(await edit([{ mask_color: '#00FF66', action: 'add' }], mask, { 'layers[0].element': plant }));
    expect(meanDiff(out, original, not(dilate(spot, W, H, 12)))).toBeLessThan(3);
    expect(meanDiff(out, original, spot)).toBeGreaterThan(5);
  });

  it('replace: the table is removed and a lamp stands in its place', async () => {
    const mask = await encode(paletteMaskImage(scene, [{ region: 'table', color: '#CCFF00' }]), 'png');
    const lamp = await encode(makeElement('lamp', 200, 500, 'alpha'), 'png');
    const out = await raw(await edit([{ mask_color: '#CCFF00', action: 'replace' }], mask, { 'layers[0].element': lamp }));
    expect(meanDiff(out, original, scene.regions.table)).toBeGreaterThan(5);
  });

  it('several layers compose in order in one edit', async () => {
    const mask = await encode(
      paletteMaskImage(scene, [
        { region: 'wall', color: '#FF0000' },
        { region: 'floor', color: '#0066FF' },
        { region: 'table', color: '#CC00FF' },
      ]),
      'png',
    );
    const out = await raw(
      await edit(
        [
          { mask_color: '#FF0000', action: 'modify', color: '#D8C3A5', finish: 'solid_matte' },
          { mask_color: '#0066FF', action: 'modify', material: 'mat_oak_chevron' },
          { mask_color: '#CC00FF', action: 'remove' },
        ],
        mask,
      ),
    );
    const wall = erode(scene.regions.wall, W, H, 4);
    expect(deltaE2000(srgbBytesToLab(...meanRgb(out, wall)), srgbBytesToLab(...hex('#D8C3A5')))).toBeLessThan(12);
    expect(meanDiff(out, original, erode(scene.regions.floor, W, H, 4))).toBeGreaterThan(8);
    expect(meanDiff(out, original, erode(scene.regions.table, W, H, 4))).toBeGreaterThan(5);
    // The sofa was in no layer: unchanged.
    expect(meanDiff(out, original, erode(scene.regions.sofa, W, H, 8))).toBeLessThan(3);
  });
});

describe('built-in engine through POST /v1/upscales', () => {
  it.each([
    ['x2', 640, 480],
    ['x4', 1280, 960],
  ])('%s: exact size, content unchanged (downscaled back, it matches the input)', async (scale, width, height) => {
    const small = makeInteriorScene(320, 240).image;
    const png = await encode(small, 'png');
    const form = new FormData();
    form.set('image', new Blob([new Uint8Array(png)]), 'small.png');
    form.set('scale', scale);
    const res = await api<{ status: string; output: { url: string; width: number; height: number; content_type: string }[] }>('/v1/upscales', { key: org.testKey, ip, rawBody: form });
    expect(res.status).toBe(200);
    expect(res.body.output[0]).toMatchObject({ width, height, content_type: 'image/webp' });
    const big = Buffer.from(await (await fetch(res.body.output[0]!.url)).arrayBuffer());
    const back = await sharp(big).resize(320, 240, { kernel: 'lanczos3' }).removeAlpha().raw().toBuffer();
    const everywhere = new Uint8Array(320 * 240).fill(1);
    expect(meanDiff(back, small.data as Uint8Array, everywhere)).toBeLessThan(4);
  });
});
