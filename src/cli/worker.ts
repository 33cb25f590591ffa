import { prepareRuntime } from '@/server/main/runtime';
import { startWorkers } from '@/server/jobs/workers';
import { log } from '@/server/platform/logger';

/** `roomtone worker`: job workers without the web server, for scale-out. Runs until signalled. */
export async function runWorkerCommand(json: boolean): Promise<number> {
  const runtime = await prepareRuntime();
  const workers = await startWorkers();
  if (json) process.stdout.write(`${JSON.stringify({ object: 'worker', status: 'running', pid: process.pid })}\n`);
  else log.info('worker running', { pid: process.pid });
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await workers.stop();
  await runtime.shutdown();
  return 0;
}
