import { parseArgs } from 'node:util';
import { prepareRuntime } from '@/server/main/runtime';
import { runRetention } from '@/server/generations/retention';
import { clock } from '@/server/platform/clock';

/** `roomtone maintenance run [--now <ISO-8601>]`: the retention jobs, as of a given time. */
export async function runMaintenanceCommand(args: string[], json: boolean): Promise<number> {
  const { values } = parseArgs({ args, options: { now: { type: 'string' } }, strict: true });
  const now = values.now ? new Date(values.now) : new Date();
  if (Number.isNaN(now.getTime())) {
    const message = '--now must be an ISO-8601 date-time, e.g. 2026-01-31T12:00:00Z.';
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: 'usage', message } })}\n`);
    else process.stderr.write(`roomtone: ${message}\n`);
    return 2;
  }
  const runtime = await prepareRuntime({ seed: false });
  clock.set(now); // rows written by the run (credit expiries, events) carry the run's time
  try {
    const result = await runRetention(now);
    if (json) process.stdout.write(`${JSON.stringify({ object: 'maintenance_run', now: Math.floor(now.getTime() / 1000), ...result })}\n`);
    else process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await runtime.shutdown();
  }
}
