/**
 * Baseline for the admission section: the least a correct server must do to accept a
 * multipart upscale in the background, with no framework. node:http + busboy + sharp + pg:
 *   1. API key: SHA-256 of the bearer secret, looked up by "ApiKey"."secretHash";
 *   2. the multipart body streamed through busboy, the image part kept in memory;
 *   3. the image checked as Roomtone checks it (images/intake.ts: header, dimensions, full
 *      decode) and hashed;
 *   4. the file written under DATA_DIR, one row inserted (a table of its own), 202 with an id.
 * Left out on purpose (Roomtone's overhead to measure): rate limits, quotas, the price and the
 * charge, idempotency, the queue, the request log, validation layers.
 *
 * Env: PORT, DATABASE_URL, DATA_DIR.
 */
import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import busboy from 'busboy';
import pg from 'pg';
import { inspectImage } from '@/server/capabilities/images/intake';
import { serveBaseline } from './baseline-lifecycle';

const port = Number(process.env.PORT ?? 3200);
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
const dir = path.join(process.env.DATA_DIR ?? '.data/bench', 'admission-baseline');
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
await pool.query('create table if not exists bench_admission (id text primary key, organization_id text not null, digest text not null, created_at timestamptz not null default now())');
await fs.mkdir(dir, { recursive: true });

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readImage(req: http.IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const bb = busboy({ headers: req.headers, limits: { fileSize: 10 * 1024 * 1024 + 1, files: 5 } });
    let image: Buffer | null = null;
    bb.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (name === 'image') image = Buffer.concat(chunks);
      });
    });
    bb.on('close', () => resolve(image));
    bb.on('error', reject);
    req.pipe(bb);
  });
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (req.url === '/healthz') return send(res, 200, { status: 'ok' });
  const secret = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  const hash = secret ? createHash('sha256').update(secret).digest('hex') : '';
  const { rows } = await pool.query<{ organizationId: string }>('select "organizationId" from "ApiKey" where "secretHash" = $1 and "revokedAt" is null', [hash]);
  const key = rows[0];
  if (!key) return send(res, 401, { error: { code: 'api_key_invalid', message: 'Unknown key.' } });
  const image = await readImage(req);
  if (!image) return send(res, 400, { error: { code: 'parameter_invalid', message: 'image is required.', param: 'image' } });
  await inspectImage(image, 'image');
  const digest = createHash('sha256').update(image).digest('hex');
  const id = `gen_${randomUUID().replaceAll('-', '')}`;
  await fs.writeFile(path.join(dir, `${id}.jpg`), image);
  await pool.query('insert into bench_admission (id, organization_id, digest) values ($1, $2, $3)', [id, key.organizationId, digest]);
  send(res, 202, { object: 'generation', id, status: 'in_progress' });
}

serveBaseline('admission baseline', port, pool, handle);
