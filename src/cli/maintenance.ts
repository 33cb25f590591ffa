import { parseArgs } from 'node:util';
import { runRetention } from '@/server/jobs/retention';
import { clock } from '@/server/platform/clock';
import type { CliContext } from './context';

/** `roomtone maintenance run [--now <ISO-8601>]`: the retention jobs, as of a given time. */
export async function runMaintenanceCommand(args: string[], context: CliContext): Promise<number> {
  const { values } = parseArgs({ args, options: { now: { type: 'string' } }, strict: true });
  const now = values.now ? new Date(values.now) : new Date();
  if (Number.isNaN(now.getTime())) {
    const message = '--now must be an ISO-8601 date-time, e.g. 2026-01-31T12:00:00Z.';
    if (context.json) context.out(JSON.stringify({ error: { code: 'usage', message } }));
    else context.err(`roomtone: ${message}`);
    return 2;
  }
  await context.ready();
  // Rows written by the run (credit expiries, events) carry the run's time; the process's clock
  // is given back afterwards (a test that runs the command in its own process keeps its time).
  const restoreClock = clock.save();
  clock.set(now);
  try {
    const result = await runRetention(now);
    if (context.json) context.out(JSON.stringify({ object: 'maintenance_run', now: Math.floor(now.getTime() / 1000), ...result }));
    else context.out(JSON.stringify(result, null, 2));
    return 0;
  } finally {
    restoreClock();
  }
}
