/**
 * Built-in engine operations at 1k, 2k and 4k (median of several runs), by the engine's own
 * benchmark (bench/engine-kernels.ts), run as a child so its worker threads and
 * memory do not mix with the other sections'.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT, envNumber, type BenchContext, type SectionOutput } from '../lib';

export async function engineSection(ctx: BenchContext): Promise<SectionOutput> {
  const runs = envNumber('BENCH_ENGINE_RUNS', 3);
  const args = [createRequire(import.meta.url).resolve('tsx/cli'), path.join(ROOT, 'bench/engine-kernels.ts'), '--runs', String(runs)];
  if (process.env.BENCH_NEURAL === '1') args.push('--neural');
  ctx.log(`engine: ${runs} runs per operation and size${process.env.BENCH_NEURAL === '1' ? ' (with the neural upscaler)' : ''}`);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`engine bench exited with ${code}`))));
  });
  return {
    markdown: ['### Built-in engine operations', '', `Median of ${runs} runs per cell (wall time; CPU time where printed). \`BENCH_NEURAL=1\` adds the neural upscaler (slow).`, '', output.trim()].join('\n'),
    raw: { runs, output },
    failures: [],
  };
}
