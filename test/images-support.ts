/**
 * Helpers for the creation tests: small images made with sharp (or by hand for PNG headers
 * that would be too large to render), files served by the loopback image server, multipart
 * bodies, generation waits, and the "nothing left behind" checks of refused requests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, inject } from 'vitest';
import sharp from 'sharp';
import { db } from '@/server/platform/db';
import { api, type ApiResult } from './support';

export const imageOrigin = inject('imageOrigin');
export const wwwDir = inject('wwwDir');

/** Where the server's local blob store keeps received images (DATA_DIR=.data/test). */
export const inputsDir = path.resolve(import.meta.dirname, '..', '.data', 'test', 'blobs', 'inputs');

export interface ApiErrorBody {
  error: { code: string; message: string; param?: string };
}

export interface OutputItem {
  url: string;
  url_expires_at: number;
  content_type: string;
  width: number;
  height: number;
}

export interface ApiGeneration {
  object: string;
  id: string;
  type: string;
  status: string;
  cancelable: boolean;
  livemode: boolean;
  input: Record<string, unknown>;
  output: OutputItem[];
  error: { code: string; message: string } | null;
  metadata: Record<string, unknown>;
  cost: { amount: number; amount_refunded: number };
}

/** Exact status, code and param (param undefined = the body must carry none or we do not care). */
export function expectError(res: ApiResult<unknown>, status: number, code: string, param?: string): void {
  const detail = JSON.stringify(res.body);
  expect(res.status, detail).toBe(status);
  const body = res.body as Partial<ApiErrorBody> | null;
  expect(body && typeof body === 'object' && body.error && typeof body.error.message === 'string', `error envelope: ${detail}`).toBe(true);
  expect(body?.error?.code, detail).toBe(code);
  if (param !== undefined) expect(body?.error?.param, detail).toBe(param);
}

const served = new Map<string, Buffer | string>();

/** Serve `bytes` from the image server under a unique name; returns the name. */
export function serveFile(bytes: Buffer | string, ext: string): string {
  const name = `ct-${randomUUID()}.${ext}`;
  fs.mkdirSync(wwwDir, { recursive: true });
  fs.writeFileSync(path.join(wwwDir, name), bytes);
  served.set(name, bytes);
  return name;
}

/**
 * Put back any served file that disappeared: the www directory is shared by every test run
 * on this machine and a concurrent run's global setup empties it. Call from beforeEach.
 */
export function restoreServedFiles(): void {
  fs.mkdirSync(wwwDir, { recursive: true });
  for (const [name, bytes] of served) {
    const file = path.join(wwwDir, name);
    if (!fs.existsSync(file)) fs.writeFileSync(file, bytes);
  }
}

/** URL of a served file (optionally behind a behaviour prefix such as `redirect/5`). */
export function servedUrl(name: string, prefix = ''): string {
  return `${imageOrigin}/${prefix ? `${prefix}/` : ''}${name}`;
}

/** Serve and return the URL in one step. */
export function serve(bytes: Buffer | string, ext: string): string {
  return servedUrl(serveFile(bytes, ext));
}

export async function noiseImage(width: number, height: number, format: 'jpeg' | 'png' | 'webp' = 'jpeg', quality = 80): Promise<Buffer> {
  const img = sharp({ create: { width, height, channels: 3, background: { r: 128, g: 120, b: 110 }, noise: { type: 'gaussian', mean: 128, sigma: 40 } } });
  if (format === 'jpeg') return img.jpeg({ quality }).toBuffer();
  if (format === 'png') return img.png().toBuffer();
  return img.webp({ quality }).toBuffer();
}

export async function solidImage(width: number, height: number, format: 'jpeg' | 'png' = 'png', colour = '#8a7f70'): Promise<Buffer> {
  const img = sharp({ create: { width, height, channels: 3, background: colour } });
  return format === 'png' ? img.png().toBuffer() : img.jpeg().toBuffer();
}

export { bilevelPng } from './helpers/bilevel-png';

/** A 1×1 GIF89a. */
export const GIF_1X1 = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export interface MaskRect {
  x: number;
  y: number;
  w: number;
  h: number;
  /** #RRGGBB */
  color: string;
  alpha?: number;
}

/** A transparent RGBA PNG with the given rectangles painted. */
export async function maskPng(width: number, height: number, rects: MaskRect[]): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 4);
  for (const rect of rects) {
    const r = parseInt(rect.color.slice(1, 3), 16);
    const g = parseInt(rect.color.slice(3, 5), 16);
    const b = parseInt(rect.color.slice(5, 7), 16);
    for (let y = rect.y; y < Math.min(height, rect.y + rect.h); y++) {
      for (let x = rect.x; x < Math.min(width, rect.x + rect.w); x++) {
        const o = (y * width + x) * 4;
        raw[o] = r;
        raw[o + 1] = g;
        raw[o + 2] = b;
        raw[o + 3] = rect.alpha ?? 255;
      }
    }
  }
  return sharp(raw, { raw: { width, height, channels: 4 } }).png().toBuffer();
}

/** Left half one colour, right half another (or the whole mask one colour). */
export function halves(width: number, height: number, left: string, right?: string): MaskRect[] {
  if (right === undefined) return [{ x: 0, y: 0, w: width, h: height, color: left }];
  const half = Math.floor(width / 2);
  return [
    { x: 0, y: 0, w: half, h: height, color: left },
    { x: half, y: 0, w: width - half, h: height, color: right },
  ];
}

export function blob(bytes: Buffer, type = 'application/octet-stream'): Blob {
  return new Blob([new Uint8Array(bytes)], { type });
}

/** A multipart body: strings are text fields, Buffers are file parts (named as their field). */
export function form(parts: ReadonlyArray<readonly [string, string | Buffer]>): FormData {
  const fd = new FormData();
  for (const [name, value] of parts) {
    if (typeof value === 'string') fd.append(name, value);
    else fd.append(name, blob(value), 'upload.bin');
  }
  return fd;
}

export function post<T = unknown>(route: string, key: string, ip: string, body: Record<string, unknown> | FormData, headers: Record<string, string> = {}): Promise<ApiResult<T>> {
  if (body instanceof FormData) return api<T>(route, { key, ip, method: 'POST', rawBody: body, headers });
  return api<T>(route, { key, ip, method: 'POST', body, headers });
}

/** 202 with an in-progress generation; then cancel it so the shared workers stay free. */
export async function expectAccepted(res: ApiResult<unknown>, key: string, ip: string, type: string): Promise<ApiGeneration> {
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const gen = res.body as ApiGeneration;
  expect(gen).toMatchObject({ object: 'generation', type, status: 'in_progress' });
  expect(gen.id).toMatch(/^gen_/);
  await api(`/v1/generations/${gen.id}/cancel`, { key, ip, method: 'POST' });
  return gen;
}

export async function readGeneration(id: string, key: string, ip: string): Promise<ApiGeneration> {
  const res = await api<ApiGeneration>(`/v1/generations/${id}`, { key, ip });
  expect(res.status).toBe(200);
  return res.body;
}

/**
 * Poll until the generation ends (or `timeoutMs` passes: the generation as it is then). A 429 or
 * 503 on the way (a loaded machine) is waited out as a client would, by its Retry-After (5 s at
 * most); any other answer than 200 fails, with its body.
 */
export async function waitForEnd<T extends { status: string } = ApiGeneration>(id: string, key: string, ip: string, timeoutMs = 150_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api<T>(`/v1/generations/${id}`, { key, ip });
    const refusedForNow = (res.status === 429 || res.status === 503) && Date.now() < deadline;
    if (!refusedForNow) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      if (res.body.status !== 'in_progress' || Date.now() > deadline) return res.body;
    }
    const waitMs = refusedForNow ? Math.min(Number(res.headers.get('retry-after')) || 1, 5) * 1000 : 300;
    await new Promise((r) => setTimeout(r, waitMs));
  }
}

/** Names of the per-generation directories of stored inputs. */
export function inputDirectories(): Set<string> {
  try {
    return new Set(fs.readdirSync(inputsDir));
  } catch {
    return new Set();
  }
}

function filesUnder(dir: string): string[] {
  try {
    return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

/**
 * No stored input file is left by a refused request: every directory that appeared since
 * `before` and belongs to no generation (a refused request's) holds no file. Directories of
 * generations accepted meanwhile (other test files share the server) are skipped.
 */
export async function expectNoInputsLeft(before: Set<string>): Promise<void> {
  // Other files run beside this one: a request of theirs in flight has stored its inputs before
  // its generation row commits (or before its refusal deletes them). Such files resolve within
  // moments; a leaked input stays for good, so the check is repeated until it holds or 15 s pass.
  const deadline = Date.now() + 15_000;
  let orphans: string[] = [];
  do {
    await new Promise((r) => setTimeout(r, 500));
    const appeared = [...inputDirectories()].filter((d) => !before.has(d));
    orphans = [];
    for (const dir of appeared) {
      const gen = await db().generation.findUnique({ where: { id: dir }, select: { id: true } });
      if (!gen) orphans.push(...filesUnder(path.join(inputsDir, dir)));
    }
  } while (orphans.length > 0 && Date.now() < deadline);
  expect(orphans).toEqual([]);
}

export interface LedgerSnapshot {
  balanceCents: number;
  generations: number;
  transactions: number;
}

export async function ledgerSnapshot(organizationId: string): Promise<LedgerSnapshot> {
  const [org, generations, transactions] = await Promise.all([
    db().organization.findUniqueOrThrow({ where: { id: organizationId }, select: { balanceCents: true } }),
    db().generation.count({ where: { organizationId } }),
    db().balanceTransaction.count({ where: { organizationId } }),
  ]);
  return { balanceCents: org.balanceCents, generations, transactions };
}
