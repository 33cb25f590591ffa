import { startWorkers } from '@/server/jobs/workers';
import { log } from '@/server/platform/logger';
import type { CliContext } from './context';

/** `roomtone worker`: job workers without the web server, for scale-out. Runs until signalled. */
export async function runWorkerCommand(context: CliContext): Promise<number> {
  await context.ready({ seed: true });
  const workers = await startWorkers();
  if (context.json) context.out(JSON.stringify({ object: 'worker', status: 'running', pid: process.pid }));
  else log.info('worker running', { pid: process.pid });
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await workers.stop();
  return 0;
}
