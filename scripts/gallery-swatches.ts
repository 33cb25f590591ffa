/**
 * Renders every catalogue material to gallery/swatches/<id>.png plus an index.html grid and a
 * contact sheet per category (gallery/swatches/_sheet_<category>.png) for eyeballing.
 *
 *   npx tsx scripts/gallery-swatches.ts [size=256] [filter]
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { catalog, type EditMaterial } from '../src/server/capabilities/reference/catalog';
import { defaultSpanCm, materialSeed, renderSwatch } from '../src/server/capabilities/engine/builtin/swatches';

const { categories: EDIT_MATERIAL_CATEGORIES, materials: EDIT_MATERIALS } = catalog();

type Overlay = Parameters<ReturnType<typeof sharp>['composite']>[0][number];

const size = Number(process.argv[2] ?? 256) || 256;
const filter = process.argv[3];
const outDir = path.resolve(import.meta.dirname, '..', 'gallery', 'swatches');

function esc(s: string): string {
  return s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch] ?? ch);
}

async function main(): Promise<void> {
  await mkdir(outDir, { recursive: true });
  const materials = EDIT_MATERIALS.filter((m) => !filter || m.id.includes(filter) || m.categoryId === filter || m.texture.kind === filter);
  const rendered: { m: EditMaterial; png: Buffer; ms: number }[] = [];
  for (const m of materials) {
    const t0 = performance.now();
    const img = renderSwatch(m.texture, size, size, materialSeed(m.id));
    const ms = performance.now() - t0;
    const png = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).png().toBuffer();
    await writeFile(path.join(outDir, `${m.id}.png`), png);
    rendered.push({ m, png, ms });
    console.log(`${m.id.padEnd(40)} ${m.texture.kind.padEnd(10)} ${ms.toFixed(1).padStart(7)} ms`);
  }

  // Contact sheets, one per category, 6 columns with a caption strip under each swatch.
  const cols = 6, pad = 8, cap = 22, cell = size + pad;
  for (const cat of EDIT_MATERIAL_CATEGORIES) {
    const items = rendered.filter((r) => r.m.categoryId === cat.id);
    if (items.length === 0) continue;
    const rows = Math.ceil(items.length / cols);
    const W = cols * cell + pad, H = rows * (cell + cap) + pad;
    const composites: Overlay[] = [];
    items.forEach((r, k) => {
      const x = pad + (k % cols) * cell, y = pad + Math.floor(k / cols) * (cell + cap);
      composites.push({ input: r.png, left: x, top: y });
      const label = `${r.m.name}${r.m.withdrawn ? ' (withdrawn)' : ''}`;
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${cap}"><text x="2" y="15" font-family="sans-serif" font-size="13" fill="#222">${esc(label)}</text></svg>`;
      composites.push({ input: Buffer.from(svg), left: x, top: y + size + 1 });
    });
    await sharp({ create: { width: W, height: H, channels: 3, background: '#f4f4f2' } })
      .composite(composites)
      .png()
      .toFile(path.join(outDir, `_sheet_${cat.id}.png`));
  }

  const sections = EDIT_MATERIAL_CATEGORIES.map((cat) => {
    const items = rendered.filter((r) => r.m.categoryId === cat.id);
    if (items.length === 0) return '';
    const cards = items
      .map(
        ({ m, ms }) => `<figure${m.withdrawn ? ' class="withdrawn"' : ''}>
  <img src="${m.id}.png" width="${size}" height="${size}" alt="${esc(m.name)}" loading="lazy">
  <figcaption><b>${esc(m.name)}</b>${m.withdrawn ? ' <em>withdrawn</em>' : ''}<br><code>${m.id}</code><br>
  <small>${esc(m.texture.kind)} · ${defaultSpanCm(m.texture).toFixed(0)} cm wide · ${ms.toFixed(0)} ms</small>
  <p>${esc(m.description)}</p></figcaption>
</figure>`,
      )
      .join('\n');
    return `<h2>${esc(cat.name)} <small>(${esc(cat.id)}, ${items.length})</small></h2>\n<div class="grid">\n${cards}\n</div>`;
  }).join('\n');

  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Roomtone material swatches</title>
<style>
body{font-family:system-ui,sans-serif;margin:24px;background:#f6f5f2;color:#222}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(${size}px,1fr));gap:16px}
figure{margin:0;background:#fff;padding:8px;border-radius:6px;box-shadow:0 1px 3px #0002}
figure img{display:block;width:100%;height:auto;image-rendering:auto}
figure.withdrawn{opacity:.55}
figcaption{font-size:13px;line-height:1.35;margin-top:6px}
figcaption p{margin:4px 0 0;color:#555}
code{font-size:11px;color:#666}
</style></head><body>
<h1>Roomtone material swatches <small>(${rendered.length} materials, ${size}px)</small></h1>
${sections}
</body></html>
`;
  await writeFile(path.join(outDir, 'index.html'), html);
  const total = rendered.reduce((s, r) => s + r.ms, 0);
  console.log(`\n${rendered.length} swatches → ${outDir} (render total ${total.toFixed(0)} ms)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
