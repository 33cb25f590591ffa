/**
 * A small S3-protocol server, path-style (/bucket/key): PUT, GET, HEAD and DELETE of objects,
 * S3's XML errors. It does not verify signatures but refuses any request that is not
 * SigV4-signed, in a header (SDK calls) or in the query (presigned URLs). Every request is
 * recorded, with how many body bytes of a GET were actually written before the client left.
 * `hold(key)` makes GETs of that key send the headers and the first 64 KiB, then wait until the
 * client closes the connection (or `close()`): a reader that needs the whole body never ends.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface S3Request {
  method: string;
  path: string;
  authorization: string | undefined;
  presigned: boolean;
  /** GET: body bytes written to the client; undefined while the response is in flight. */
  bytesSent?: number;
}

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  objects: Map<string, { body: Buffer; contentType: string }>;
  requests: S3Request[];
  /** GETs of `key` send 64 KiB and wait for the client to go away. */
  hold(key: string): void;
  /**
   * Every request from now on: `error` answers 500 InternalError (the bucket's own fault),
   * `stall` never answers (until `fail('none')` or close()), `none` serves again.
   */
  fail(mode: 'none' | 'error' | 'stall'): void;
  close(): Promise<void>;
}

function xmlError(res: http.ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

const HELD_PREFIX = 64 * 1024;

export async function startLocalS3(bucket = 'roomtone-test'): Promise<LocalS3> {
  const objects = new Map<string, { body: Buffer; contentType: string }>();
  const requests: S3Request[] = [];
  const held = new Set<string>();
  const open = new Set<http.ServerResponse>();
  let failing: 'none' | 'error' | 'stall' = 'none';
  const stalled = new Set<http.ServerResponse>();

  const handle = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const authorization = req.headers.authorization;
    const presigned = url.searchParams.get('X-Amz-Algorithm') === 'AWS4-HMAC-SHA256' && url.searchParams.has('X-Amz-Signature');
    const record: S3Request = { method: req.method ?? '', path: url.pathname, authorization, presigned };
    requests.push(record);
    if (!authorization?.startsWith('AWS4-HMAC-SHA256 ') && !presigned) {
      return xmlError(res, 403, 'AccessDenied', 'request is not signed with AWS4-HMAC-SHA256');
    }
    const [, name = '', ...rest] = url.pathname.split('/');
    const key = rest.map(decodeURIComponent).join('/');
    if (name !== bucket) return xmlError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
    if (failing === 'error') return xmlError(res, 500, 'InternalError', 'We encountered an internal error. Please try again.');
    if (failing === 'stall') {
      stalled.add(res);
      res.once('close', () => stalled.delete(res));
      return;
    }

    switch (req.method) {
      case 'PUT':
        objects.set(key, { body, contentType: req.headers['content-type'] ?? 'application/octet-stream' });
        res.writeHead(200, { etag: '"test"' });
        return void res.end();
      case 'GET':
      case 'HEAD': {
        const object = objects.get(key);
        if (!object) return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
        res.writeHead(200, { 'content-type': object.contentType, 'content-length': String(object.body.length) });
        if (req.method === 'HEAD') return void res.end();
        if (held.has(key) && object.body.length > HELD_PREFIX) {
          open.add(res);
          res.write(object.body.subarray(0, HELD_PREFIX));
          res.once('close', () => {
            record.bytesSent = HELD_PREFIX;
            open.delete(res);
          });
          return;
        }
        record.bytesSent = object.body.length;
        return void res.end(object.body);
      }
      case 'DELETE':
        objects.delete(key);
        res.writeHead(204);
        return void res.end();
      default:
        return xmlError(res, 405, 'MethodNotAllowed', 'method not allowed');
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bucket,
    objects,
    requests,
    hold: (key) => held.add(key),
    fail: (mode) => {
      failing = mode;
      if (mode === 'none') for (const res of stalled) res.destroy();
    },
    async close() {
      for (const res of [...open, ...stalled]) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
