/**
 * Port 443 of loopback, taken in turns. The SSRF-safe client reaches only the standard port, and
 * the loopback flag admits exactly 127.0.0.1 and ::1, so every local stand-in that the service
 * must reach over HTTPS (the image server, webhook receivers, the Replicate server, the e2e's
 * receiver) listens on 443 of one of those two addresses. Every such server binds through here:
 * when the port is taken, it waits its turn (the kernel's bind is the lock, so runs in network
 * namespaces of their own never wait for each other), or, asked not to wait, answers false.
 */
import type { Server } from 'node:net';

export type LoopbackHost = '127.0.0.1' | '::1';

/** How long a server waits for the port by default: the files before it hold it for minutes. */
export const PORT_443_WAIT_MS = 15 * 60_000;
const RETRY_MS = 200;

function listenOnce(server: Server, host: LoopbackHost): Promise<'listening' | 'taken'> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve('taken');
      else reject(error);
    };
    server.once('error', onError);
    server.listen({ port: 443, host, exclusive: true }, () => {
      server.off('error', onError);
      resolve('listening');
    });
  });
}

/**
 * Listens on `host`:443. With `wait` (the default) a taken port is tried again until it is free
 * or `waitMs` has passed (then an error names the port); without, a taken port answers false.
 */
export async function listenOn443(server: Server, host: LoopbackHost, options: { wait?: boolean; waitMs?: number } = {}): Promise<boolean> {
  const deadline = performance.now() + (options.waitMs ?? PORT_443_WAIT_MS);
  let told = false;
  for (;;) {
    if ((await listenOnce(server, host)) === 'listening') return true;
    if (options.wait === false) return false;
    if (performance.now() > deadline) throw new Error(`port 443 of ${host} stayed taken for ${Math.round((options.waitMs ?? PORT_443_WAIT_MS) / 1000)} s`);
    if (!told) {
      told = true;
      process.stderr.write(`port 443 of ${host} is taken: waiting for its turn\n`);
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}
