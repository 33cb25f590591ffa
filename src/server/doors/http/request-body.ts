import type http from 'node:http';

/**
 * A request body as a Web stream, and what happens to the bytes nobody reads.
 *
 * A door may answer before reading the whole body: a refusal at the first multipart part, a
 * bad key on a large upload, 413 at the first byte beyond a limit. Closing the socket then,
 * with the client still sending, makes the kernel reset the connection, and the client sees
 * ECONNRESET instead of the error (measured: every 11 MB upload refused early, with Node's
 * `Readable.toWeb`, whose cancel destroys the request). So bytes nobody reads are discarded
 * (never buffered) until the body ends, like nginx's lingering close, within a bound: past
 * LINGER_MAX_BYTES or LINGER_MAX_MS the connection is closed anyway.
 */
const LINGER_MAX_BYTES = 64 * 1024 * 1024;
const LINGER_MAX_MS = 10_000;

const detachers = new WeakMap<http.IncomingMessage, () => void>();
const discarding = new WeakSet<http.IncomingMessage>();

export function requestBodyStream(req: http.IncomingMessage): ReadableStream<Uint8Array> {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const onData = (chunk: Buffer): void => {
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    // One chunk at a time: the reader's pace is the socket's pace (backpressure).
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = (): void => controller.close();
  const onError = (error: Error): void => controller.error(error);
  const onAborted = (): void => controller.error(new Error('the client closed the connection before the body ended'));
  const detach = (): void => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
    req.off('aborted', onAborted);
  };
  detachers.set(req, detach);
  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      // Made when a door first asks for the body (after its key check): a client that has
      // gone since then sends nothing more, and its 'aborted' has passed.
      if (req.destroyed) {
        onAborted();
        return;
      }
      req.pause();
      req.on('data', onData);
      req.once('end', onEnd);
      req.once('error', onError);
      req.once('aborted', onAborted);
    },
    pull() {
      req.resume();
    },
    cancel() {
      discardRequestBody(req);
    },
  });
}

/** Read and drop what is left of the body (bounded), so the answer reaches the client. Idempotent. */
export function discardRequestBody(req: http.IncomingMessage): void {
  detachers.get(req)?.();
  detachers.delete(req);
  if (discarding.has(req) || req.complete || req.destroyed || req.readableEnded) return;
  discarding.add(req);
  let discarded = 0;
  const stop = (): void => {
    req.socket?.destroy();
  };
  const timer = setTimeout(stop, LINGER_MAX_MS);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.byteLength;
    if (discarded > LINGER_MAX_BYTES) stop();
  });
  req.once('close', () => clearTimeout(timer));
  req.on('error', () => undefined);
  req.resume();
}
