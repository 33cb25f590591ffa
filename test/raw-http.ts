/** Raw HTTP/1.1 over a socket: requests fetch() would refuse to send (bad Host, TRACE, absolute form, garbage). */
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** null when the server did not answer within the timeout (a hang). */
}

export function serverAddress(baseUrl: string): { host: string; port: number } {
  const url = new URL(baseUrl);
  return { host: url.hostname, port: Number(url.port) };
}

/**
 * Send `request` (bytes as given) and read one response: resolves when the response is
 * complete (Content-Length or close), null if nothing complete came within `timeoutMs`.
 */
export function rawRequest(baseUrl: string, request: string | Buffer, timeoutMs = 10_000): Promise<RawResponse | null> {
  const { host, port } = serverAddress(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let data = Buffer.alloc(0);
    let done = false;
    const finish = (value: RawResponse | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    const tryParse = (closed: boolean) => {
      const end = data.indexOf('\r\n\r\n');
      if (end === -1) return closed ? finish(null) : undefined;
      const head = data.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '')?.[1] ?? NaN);
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      if (status === 100) {
        data = data.subarray(end + 4);
        return tryParse(closed);
      }
      const body = data.subarray(end + 4);
      const length = headers['content-length'];
      if (length !== undefined && body.length >= Number(length)) return finish({ status, headers, body: body.subarray(0, Number(length)).toString('utf8') });
      if (headers['transfer-encoding'] === 'chunked' && (body.includes('\r\n0\r\n\r\n') || body.subarray(0, 5).toString() === '0\r\n\r\n')) {
        return finish({ status, headers, body: dechunk(body).toString('utf8') });
      }
      if (closed) finish({ status, headers, body: body.toString('utf8') });
    };
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      tryParse(false);
    });
    socket.on('end', () => tryParse(true));
    socket.on('close', () => tryParse(true));
    socket.on('error', () => tryParse(true));
    socket.write(request);
  });
}

/** The payload of a complete chunked body (chunk extensions and trailers ignored). */
function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd === -1) return Buffer.concat(parts);
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1').split(';')[0]!, 16);
    if (!Number.isFinite(size) || size === 0) return Buffer.concat(parts);
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** A request with the given request line and headers (CRLF), an optional body. */
export function requestText(line: string, headers: ReadonlyArray<readonly [string, string]>, body = ''): string {
  const all = [...headers];
  if (body && !all.some(([name]) => name.toLowerCase() === 'content-length' || name.toLowerCase() === 'transfer-encoding')) {
    all.push(['Content-Length', String(Buffer.byteLength(body))]);
  }
  return `${line}\r\n${all.map(([n, v]) => `${n}: ${v}`).join('\r\n')}${all.length ? '\r\n' : ''}\r\n${body}`;
}

export function envelopeCode(res: RawResponse): string | undefined {
  try {
    return (JSON.parse(res.body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}
