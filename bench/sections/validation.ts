/**
 * Input validation cost, in process (no server): inspectImage on the largest image the spec
 * admits (6000×6000 = 36 Mpx JPEG, under 10 MiB) and analyzeMask on a 4096×3072 palette PNG
 * mask for a 4096×3072 image. The inputs are generated once under .data/bench/validation.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { MAX_IMAGE_BYTES, inspectImage } from '@/server/capabilities/images/intake';
import { MASK_PALETTE, analyzeMask } from '@/server/capabilities/images/mask';
import { BENCH_DATA_DIR, fmt, markdownTable, medianOfRuns, type BenchContext, type RunStats, type SectionOutput } from '../lib';

const RUNS = 7;
const DIR = path.join(BENCH_DATA_DIR, 'validation');

/**
 * A photo-like 6000×6000 JPEG: smooth lighting gradients, a few soft shapes, and film-grain
 * noise, so the entropy decoder has real work (a flat image decodes unrealistically fast).
 * Quality is lowered until it fits the 10 MiB input limit (pure noise would not).
 */
async function photoJpeg(): Promise<Buffer> {
  const file = path.join(DIR, 'photo-6000x6000.jpg');
  if (fs.existsSync(file)) return fs.readFileSync(file);
  const size = 6000;
  const grain = await sharp({ create: { width: size, height: size, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .blur(0.8)
    .raw()
    .toBuffer();
  const pixels = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const o = (y * size + x) * 3;
      // Wall/floor light falloff plus two soft "objects".
      const light = 150 + 60 * Math.sin(x / 900) * Math.cos(y / 1300);
      const sofa = (x - 2500) ** 2 / 1.2e6 + (y - 4200) ** 2 / 3e5 < 1 ? -60 : 0;
      const lamp = (x - 4600) ** 2 + (y - 1500) ** 2 < 400 ** 2 ? 70 : 0;
      for (let c = 0; c < 3; c++) {
        const tint = c === 0 ? 12 : c === 2 ? -10 : 0;
        const noise = ((grain[o + c] as number) - 128) * 0.35;
        pixels[o + c] = Math.max(0, Math.min(255, Math.round(light + sofa + lamp + tint + noise)));
      }
    }
  }
  let bytes: Buffer | null = null;
  for (const quality of [88, 82, 76, 70, 62, 54, 46]) {
    bytes = await sharp(pixels, { raw: { width: size, height: size, channels: 3 } }).jpeg({ quality, mozjpeg: false }).toBuffer();
    if (bytes.length <= MAX_IMAGE_BYTES * 0.95) break;
  }
  if (!bytes || bytes.length > MAX_IMAGE_BYTES) throw new Error('could not fit the 36 Mpx JPEG under 10 MiB');
  fs.mkdirSync(DIR, { recursive: true });
  fs.writeFileSync(file, bytes);
  return bytes;
}

/** A palette (indexed) PNG as a console's painter would export: five colour areas on transparency. */
async function paletteMask(width: number, height: number): Promise<Buffer> {
  const file = path.join(DIR, `mask-${width}x${height}.png`);
  if (fs.existsSync(file)) return fs.readFileSync(file);
  const rgba = Buffer.alloc(width * height * 4);
  const colours = MASK_PALETTE.map((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number]);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Five blobs of different shapes; everything else transparent (unpainted).
      let label = -1;
      if ((x - 900) ** 2 + (y - 900) ** 2 < 600 ** 2) label = 0;
      else if (x > 1800 && x < 3000 && y > 300 && y < 1400) label = 1;
      else if ((x - 3300) ** 2 / 4 + (y - 2300) ** 2 < 500 ** 2) label = 2;
      else if (y > 2600 && x < 1600) label = 3;
      else if (Math.abs(x - y - 400) < 120) label = 4;
      if (label >= 0) {
        const [r, g, b] = colours[label] as [number, number, number];
        rgba.set([r, g, b, 255], (y * width + x) * 4);
      }
    }
  }
  const bytes = await sharp(rgba, { raw: { width, height, channels: 4 } }).png({ palette: true, colours: 8, dither: 0 }).toBuffer();
  fs.mkdirSync(DIR, { recursive: true });
  fs.writeFileSync(file, bytes);
  return bytes;
}

interface Measured {
  name: string;
  input: string;
  stats: RunStats;
}

export async function validationSection(ctx: BenchContext): Promise<SectionOutput> {
  const photo = await photoJpeg();
  const mask = await paletteMask(4096, 3072);
  const failures: string[] = [];

  const info = await inspectImage(photo, 'image');
  if (info.width !== 6000 || info.height !== 6000) failures.push(`inspectImage read ${info.width}×${info.height}, expected 6000×6000`);
  const analysis = await analyzeMask(mask, { width: 4096, height: 3072 });
  if (analysis.paintedColors.length !== MASK_PALETTE.length) failures.push(`analyzeMask found ${analysis.paintedColors.length} colours, expected 5`);

  ctx.log(`validation: inspectImage ×${RUNS} on ${fmt(photo.length / 1024 / 1024, 1)} MiB JPEG`);
  const inspect = await medianOfRuns(RUNS, () => inspectImage(photo, 'image'));
  ctx.log(`validation: analyzeMask ×${RUNS} on ${fmt(mask.length / 1024, 0)} KiB palette PNG`);
  const masks = await medianOfRuns(RUNS, () => analyzeMask(mask, { width: 4096, height: 3072 }));

  const measured: Measured[] = [
    { name: '`inspectImage`', input: `6000×6000 JPEG (36 Mpx, ${fmt(photo.length / 1024 / 1024, 1)} MiB, noisy)`, stats: inspect },
    {
      name: '`analyzeMask`',
      input: `4096×3072 palette PNG (${fmt(mask.length / 1024)} KiB) for a 4096×3072 image, ${analysis.paintedColors.length} colours`,
      stats: masks,
    },
  ];
  const table = markdownTable(
    ['Function', 'Input', 'median ms', 'min ms', 'max ms'],
    measured.map((m) => [m.name, m.input, fmt(m.stats.median, 1), fmt(m.stats.min, 1), fmt(m.stats.max, 1)]),
  );
  return {
    markdown: ['### Input validation (in process)', '', `Median of ${RUNS} runs (after one untimed run that checks the result).`, '', table].join('\n'),
    raw: {
      runs: RUNS,
      inspectImage: { bytes: photo.length, info, ...inspect },
      analyzeMask: { bytes: mask.length, paintedColors: analysis.paintedColors, coverage: analysis.coverage, ...masks },
    },
    failures,
  };
}
