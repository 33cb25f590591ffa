/**
 * Contact sheets of the built-in engine: before/after for every operation and every finish.
 * Run: npx tsx scripts/gallery-engine.ts [--no-neural]   -> gallery/engine/index.html + *.png
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import {
  recolorArea, applyMaterial, removeAreaWithInfo, addElement, replaceElement, deterministicPreview,
  upscaleLanczos3, upscaleNeuralWithStats, closeNeuralWorker, downscaleArea, FINISHES, encodeOutput,
  type RawImage, type Finish,
} from '../src/server/capabilities/engine/builtin/index';
import { makeInteriorScene, makeElement, makeSwatch, rectMask, labelMapFor, paletteMaskImage } from '../test/helpers/engine-scenes';
import { layerAlpha } from '../src/server/capabilities/engine/builtin/masks';

const OUT = path.join(process.cwd(), 'gallery', 'engine');
mkdirSync(OUT, { recursive: true });
const neural = !process.argv.includes('--no-neural');

type Cell = { img: RawImage; label: string };
type Sheet = { file: string; title: string; note: string; cells: Cell[] };
const sheets: Sheet[] = [];

async function toPng(img: RawImage, width: number, nearest = false): Promise<Buffer> {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } })
    .resize({ width, kernel: nearest ? 'nearest' : 'lanczos3' })
    .removeAlpha()
    .png()
    .toBuffer();
}

async function writeSheet(s: Sheet, cellW = 640, cols = 2, nearest = false): Promise<void> {
  const pngs = await Promise.all(s.cells.map((c) => toPng(c.img, cellW, nearest)));
  const metas = await Promise.all(pngs.map((p) => sharp(p).metadata()));
  const cellH = Math.max(...metas.map((m) => m.height ?? 0));
  const rows = Math.ceil(pngs.length / cols);
  const gap = 8;
  const W = cols * cellW + (cols + 1) * gap, H = rows * cellH + (rows + 1) * gap;
  await sharp({ create: { width: W, height: H, channels: 3, background: '#202124' } })
    .composite(pngs.map((p, i) => ({ input: p, left: gap + (i % cols) * (cellW + gap), top: gap + Math.floor(i / cols) * (cellH + gap) })))
    .png()
    .toFile(path.join(OUT, s.file));
  sheets.push(s);
  console.log('wrote', s.file);
}

function crop(img: RawImage, x0: number, y0: number, w: number, h: number): RawImage {
  const c = img.channels;
  const out = new Uint8Array(w * h * c);
  for (let y = 0; y < h; y++) out.set(img.data.subarray(((y0 + y) * img.width + x0) * c, ((y0 + y) * img.width + x0 + w) * c), y * w * c);
  return { data: out, width: w, height: h, channels: c };
}

const ms = (t0: number): string => `${(performance.now() - t0).toFixed(0)} ms`;

const W = 1024, H = 768;
const scene = makeInteriorScene(W, H);
const img = scene.image;
const R = scene.regions;

// --- modify + color: every finish on wall and sofa ------------------------------------
{
  const cells: Cell[] = [{ img, label: 'before' }];
  const times: string[] = [];
  for (const f of FINISHES) {
    const t0 = performance.now();
    let out = recolorArea(img, { alpha: R.wall }, '#8CA5AA', f);
    out = recolorArea(out, { alpha: R.sofa }, '#B8563A', f);
    times.push(`${f}: ${ms(t0)}`);
    cells.push({ img: out, label: f });
  }
  await writeSheet({
    file: 'modify-color-finishes.png',
    title: 'modify + color, every finish (wall #8CA5AA, sofa #B8563A)',
    note: `Order: before, ${FINISHES.join(', ')}. Two layers per image. ${times.join('; ')}`,
    cells,
  }, 480, 3);
  // zoomed crops of the sofa/wall corner for every finish (texture detail)
  const zc = cells.map((c) => ({ img: crop(c.img, 600, 330, 260, 200), label: c.label }));
  await writeSheet({ file: 'modify-color-finishes-zoom.png', title: 'finishes, 2.5x crops', note: `Same order: before, ${FINISHES.join(', ')}.`, cells: zc }, 390, 3, true);
}

// floor in textured finishes
{
  const cells: Cell[] = [{ img, label: 'before' }];
  const list: [Finish, string][] = [['wood', '#5B3A29'], ['stone', '#9C9890'], ['concrete', '#8E8D89'], ['solid_matte', '#3E4A52'], ['fabric', '#7C6A8E']];
  for (const [f, hex] of list) cells.push({ img: recolorArea(img, { alpha: R.floor }, hex, f), label: `${f} ${hex}` });
  await writeSheet({ file: 'modify-color-floor.png', title: 'modify + color on the floor', note: `before, ${list.map(([f, h]) => `${f} ${h}`).join(', ')}`, cells }, 480, 3);
}

// --- modify + material -------------------------------------------------------------------
{
  const t0 = performance.now();
  const marble = applyMaterial(img, { alpha: R.floor }, makeSwatch('marble', 256), { scale: 0.3 });
  const t1 = ms(t0);
  const oakWall = applyMaterial(img, { alpha: R.wall }, makeSwatch('oak', 256), { scale: 0.25 });
  const terr = applyMaterial(img, { alpha: R.floor }, makeSwatch('terrazzo', 256), { scale: 0.15 });
  await writeSheet({
    file: 'modify-material.png',
    title: 'modify + material (swatch tiled, relit by the original shading)',
    note: `before; floor marble (${t1}); wall oak boards; floor terrazzo`,
    cells: [{ img, label: 'before' }, { img: marble, label: 'marble floor' }, { img: oakWall, label: 'oak wall' }, { img: terr, label: 'terrazzo floor' }],
  });
}

// --- remove ------------------------------------------------------------------------------------
{
  const cells: Cell[] = [];
  const notes: string[] = [];
  for (const r of ['sofa', 'table', 'painting'] as const) {
    const res = removeAreaWithInfo(img, { alpha: R[r] });
    cells.push({ img, label: `before (${r})` }, { img: res.image, label: `${r} removed` });
    notes.push(`${r}: ${res.info.method}, ${res.info.holePixels} px, ${res.info.ms.toFixed(0)} ms`);
  }
  await writeSheet({ file: 'remove.png', title: 'remove (PatchMatch fill)', note: notes.join('; '), cells });
  const plain = makeInteriorScene(W, H, { painting: false });
  const res = removeAreaWithInfo(plain.image, { alpha: plain.regions.sofa });
  await writeSheet({
    file: 'remove-zoom.png', title: 'remove, zoom on the sofa area (scene without painting)',
    note: `${res.info.method}, ${res.info.ms.toFixed(0)} ms`,
    cells: [{ img: crop(plain.image, 480, 300, 440, 340), label: 'before' }, { img: crop(res.image, 480, 300, 440, 340), label: 'after' }],
  });
}

// --- add / replace -------------------------------------------------------------------------------
{
  const plantMask = rectMask(W, H, { x0: 0.05, y0: 0.5, x1: 0.22, y1: 0.86 });
  const lampMask = rectMask(W, H, { x0: 0.86, y0: 0.3, x1: 0.99, y1: 0.83 });
  const plant = makeElement('plant', 300, 400, 'plain');
  const lamp = makeElement('lamp', 200, 600, 'alpha');
  const t0 = performance.now();
  let added = addElement(img, { alpha: plantMask }, plant);
  const tAdd = ms(t0);
  added = addElement(added, { alpha: lampMask }, lamp);
  const t1 = performance.now();
  const replaced = replaceElement(img, { alpha: R.table }, plant);
  const tRep = ms(t1);
  const maskViz = paletteMaskImage(scene, [{ region: plantMask, color: '#FF0000' }, { region: lampMask, color: '#0066FF' }, { region: 'table', color: '#00FF66' }]);
  const vis = new Uint8Array(W * H * 3);
  for (let i = 0; i < W * H; i++) {
    const a = maskViz.data[i * 4 + 3]! / 255;
    for (let c = 0; c < 3; c++) vis[i * 3 + c] = Math.round(img.data[i * 3 + c]! * (1 - 0.6 * a) + maskViz.data[i * 4 + c]! * 0.6 * a);
  }
  await writeSheet({
    file: 'add-replace.png', title: 'add (plant on plain backdrop, lamp with alpha) and replace (table -> plant)',
    note: `mask overlay; added plant (${tAdd}) + lamp; table replaced by the plant (${tRep}); the element images`,
    cells: [
      { img: { data: vis, width: W, height: H, channels: 3 }, label: 'masks' },
      { img: added, label: 'added' },
      { img: replaced, label: 'replaced' },
      { img: sideBySide(plant, lamp), label: 'elements' },
    ],
  });
}

// --- upscale -------------------------------------------------------------------------------------
{
  const small = downscaleArea(img, 2); // 512x384
  const t0 = performance.now();
  const lz = upscaleLanczos3(small, 2);
  const tl = ms(t0);
  const sh = await sharp(small.data, { raw: { width: small.width, height: small.height, channels: 3 } }).resize(W, H, { kernel: 'lanczos3' }).raw().toBuffer();
  const cells: Cell[] = [
    { img: crop(img, 540, 80, 256, 192), label: 'original' },
    { img: crop(lz, 540, 80, 256, 192), label: `lanczos3 (ours) ${tl}` },
    { img: crop({ data: sh, width: W, height: H, channels: 3 }, 540, 80, 256, 192), label: 'sharp resize' },
  ];
  let note = `Half-size scene enlarged x2; 256x192 crops shown 2.5x (nearest). Lanczos3 ${tl}.`;
  if (neural) {
    const r = await upscaleNeuralWithStats(small, 2);
    cells.push({ img: crop(r.img, 540, 80, 256, 192), label: 'esrgan-slim' });
    note += ` Neural (esrgan-slim, worker) ${r.stats.ms.toFixed(0)} ms.`;
    await closeNeuralWorker();
  }
  await writeSheet({ file: 'upscale.png', title: 'upscale x2: original / ours / sharp / neural', note, cells }, 640, 2, true);
}

// --- preview ---------------------------------------------------------------------------------------
{
  const cells: Cell[] = [{ img, label: 'input' }];
  for (const seed of ['gen_a1', 'gen_b2', 'gen_c3']) cells.push({ img: deterministicPreview(img, { width: 1024, height: 768 }, seed), label: seed });
  await writeSheet({ file: 'preview.png', title: 'deterministic preview (renders/decorations/prompt edits in test mode)', note: 'input; seeds gen_a1, gen_b2, gen_c3', cells });
}

// the input, its palette mask, and the encoded size for reference
{
  const labels = labelMapFor(scene, [{ region: 'sofa', color: '#FF0000' }]);
  const a = layerAlpha(labels, 0);
  const enc = await encodeOutput(recolorArea(img, { alpha: a }, '#2F4858'));
  console.log('encoded 1024x768 recolor:', enc.contentType, enc.bytes.length, 'bytes');
}

function sideBySide(a: RawImage, b: RawImage): RawImage {
  const h = Math.max(a.height, b.height), w = a.width + b.width;
  const out = new Uint8Array(w * h * 3).fill(128);
  const put = (im: RawImage, ox: number): void => {
    for (let y = 0; y < im.height; y++) for (let x = 0; x < im.width; x++) {
      const s = (y * im.width + x) * im.channels;
      const al = im.channels === 4 ? im.data[s + 3]! / 255 : 1;
      for (let c = 0; c < 3; c++) out[(y * w + ox + x) * 3 + c] = Math.round(im.data[s + c]! * al + 128 * (1 - al));
    }
  };
  put(a, 0);
  put(b, a.width);
  return { data: out, width: w, height: h, channels: 3 };
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const html = `<!doctype html><meta charset="utf-8"><title>Roomtone built-in engine gallery</title>
<style>body{font:14px system-ui;background:#111;color:#ddd;margin:24px}img{max-width:100%;border:1px solid #333}h2{margin-top:40px}</style>
<h1>Roomtone built-in engine: before / after</h1>
<p>Generated by <code>npx tsx scripts/gallery-engine.ts</code> on synthetic interior fixtures (test/helpers/engine-scenes.ts).</p>
${sheets.map((s) => `<h2>${esc(s.title)}</h2><p>${esc(s.note)}</p><img src="${s.file}" alt="${esc(s.title)}">`).join('\n')}
`;
writeFileSync(path.join(OUT, 'index.html'), html);
console.log('gallery:', path.join(OUT, 'index.html'));
