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

function listenOnce(server: Server, host: LoopbackHost, port: number): Promise<'listening' | 'taken'> {
  return new Promise((resolve, reject) => {
    // Both listeners go after either event: a failed try must leave no `listening` listener
    // behind, or every retry adds one.
    const onListening = () => {
      server.off('error', onError);
      resolve('listening');
    };
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') resolve('taken');
      else reject(error);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ port, host, exclusive: true });
  });
}

/**
 * Listens on `host`:443. With `wait` (the default) a taken port is tried again until it is free
 * or `waitMs` has passed (then an error names the port); without, a taken port answers false.
 * `port` is for the mechanism's own test only.
 */
export async function listenOn443(server: Server, host: LoopbackHost, options: { wait?: boolean; waitMs?: number; port?: number } = {}): Promise<boolean> {
  const port = options.port ?? 443;
  const deadline = performance.now() + (options.waitMs ?? PORT_443_WAIT_MS);
  let told = false;
  for (;;) {
    if ((await listenOnce(server, host, port)) === 'listening') return true;
    if (options.wait === false) return false;
    if (performance.now() > deadline) throw new Error(`port ${port} of ${host} stayed taken for ${Math.round((options.waitMs ?? PORT_443_WAIT_MS) / 1000)} s`);
    if (!told) {
      told = true;
      process.stderr.write(`port ${port} of ${host} is taken: waiting for its turn\n`);
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}
