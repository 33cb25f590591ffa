/**
 * Timings of the built-in engine at 1k / 2k / 4k (median of several runs).
 * Run: npx tsx bench/engine-kernels.ts [--runs 3] [--neural]
 */
import os from 'node:os';
import {
  recolorArea, applyMaterial, removeAreaWithInfo, addElement, replaceElement, deterministicPreview,
  upscaleLanczos3, upscaleNeuralWithStats, closeNeuralWorker, encodeOutput, resampleLanczos3,
} from '@/server/capabilities/engine/builtin';
import { makeInteriorScene, makeElement, makeSwatch, rectMask } from '../test/helpers/engine-scenes';
import { scaleMaskNearest } from '../test/helpers/pixel-stats';
import type { RawImage } from '@/server/capabilities/engine/builtin/types';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;
const neural = process.argv.includes('--neural');

const median = (v: number[]): number => {
  const s = [...v].sort((a, b) => a - b);
  return s[s.length >> 1]!;
};
/**
 * Median wall time, and median CPU time of this process (all threads). Other sessions share
 * these 2 cores, so under contention CPU time is the better estimate of the quiet wall time.
 */
let lastCpu = 0;
async function time(fn: () => unknown, runs = RUNS): Promise<number> {
  const t: number[] = [], c: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    t.push(performance.now() - t0);
    const cu = process.cpuUsage(c0);
    c.push((cu.user + cu.system) / 1000);
  }
  lastCpu = median(c);
  return median(t);
}

const base = makeInteriorScene(1024, 768);
const plant = makeElement('plant', 300, 400, 'plain');
const marble = makeSwatch('marble', 256);
const rows: Record<string, Record<string, string>> = {};
const put = (op: string, size: string, ms: number, extra = ''): void => {
  (rows[op] ??= {})[size] = `${ms.toFixed(0)} wall / ${lastCpu.toFixed(0)} cpu${extra}`;
  process.stderr.write(`${op} @ ${size}: ${ms.toFixed(0)} ms wall, ${lastCpu.toFixed(0)} ms cpu${extra} [load ${os.loadavg()[0]!.toFixed(1)}]\n`);
};

for (const [size, W, H] of [['1k', 1024, 768], ['2k', 2048, 1536], ['4k', 4096, 3072]] as const) {
  const img: RawImage = W === 1024 ? base.image : resampleLanczos3(base.image, W, H);
  const m = (a: Uint8Array): Uint8Array => (W === 1024 ? a : scaleMaskNearest(a, 1024, 768, W, H));
  const wall = m(base.regions.wall), floor = m(base.regions.floor), sofa = m(base.regions.sofa), table = m(base.regions.table);
  const spot = m(rectMask(1024, 768, { x0: 0.05, y0: 0.5, x1: 0.22, y1: 0.86 }));
  const five = m(rectMask(1024, 768, { x0: 0.22, y0: 0.6, x1: 0.47, y1: 0.8 }));
  put('recolor wall (41%) default', size, await time(() => recolorArea(img, { alpha: wall }, '#4F7A8C', 'default')));
  put('recolor wall (41%) wood', size, await time(() => recolorArea(img, { alpha: wall }, '#4F7A8C', 'wood')));
  put('material floor (38%) marble', size, await time(() => applyMaterial(img, { alpha: floor }, marble, { scale: 0.3 })));
  let info = '';
  put('remove 5% rect', size, await time(() => {
    const r = removeAreaWithInfo(img, { alpha: five });
    info = ` (${r.info.method})`;
  }, W >= 4096 ? 1 : RUNS), info);
  put('remove sofa (12.5%)', size, await time(() => {
    const r = removeAreaWithInfo(img, { alpha: sofa });
    info = ` (${r.info.method})`;
  }, W >= 4096 ? 1 : RUNS), info);
  put('add plant', size, await time(() => addElement(img, { alpha: spot }, plant)));
  put('replace table->plant', size, await time(() => replaceElement(img, { alpha: table }, plant), W >= 4096 ? 1 : RUNS));
  put('preview', size, await time(() => deterministicPreview(img, { width: W, height: H }, 'gen_x')));
  put('encode webp', size, await time(() => encodeOutput(img)));
  if (W <= 2048) {
    let up: RawImage = img;
    put('lanczos x2', size, await time(() => { up = upscaleLanczos3(img, 2); }));
    put('  + encode x2 output', size, await time(() => encodeOutput(up), 1));
    put('lanczos x4', size, await time(() => { up = upscaleLanczos3(img, 4); }, 1));
    put('  + encode x4 output', size, await time(() => encodeOutput(up), 1));
  }
}

if (neural) {
  for (const [W, H] of [[512, 512], [1024, 768], [2048, 1536]] as const) {
    const img = resampleLanczos3(base.image, W, H);
    for (const s of [2, 4] as const) {
      if (W === 2048 && s === 4) continue;
      const c0 = process.cpuUsage();
      const r = await upscaleNeuralWithStats(img, s);
      const cu = process.cpuUsage(c0);
      lastCpu = (cu.user + cu.system) / 1000;
      put(`neural x${s}`, `${W}x${H}`, r.stats.ms, ` (${r.stats.tiles} tiles)`);
    }
  }
  await closeNeuralWorker();
}

// A markdown table on stdout (ready for the README); progress went to stderr.
const sizes = [...new Set(Object.values(rows).flatMap((r) => Object.keys(r)))];
console.log(`| operation | ${sizes.join(' | ')} |`);
console.log(`| --- | ${sizes.map(() => '---').join(' | ')} |`);
for (const [op, bySize] of Object.entries(rows)) console.log(`| ${op.trim()} | ${sizes.map((z) => bySize[z] ?? '–').join(' | ')} |`);
console.log(`\nms wall / ms CPU; load average ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}, ${os.cpus().length} cores, median of ${RUNS} runs.`);
