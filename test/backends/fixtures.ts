/** Shared pieces of the backend tests: test images, organizations, output checks. */
import { expect } from 'vitest';
import sharp from 'sharp';
import { db, transaction } from '@/server/platform/db';
import { createOrganization } from '@/server/capabilities/orgs/orgs';
import { createApiKey } from '@/server/capabilities/keys/keys';
import { getBytes, type BackendTestEnv } from './harness';

export const W = 1600;
export const H = 1200;

export interface Gen {
  id: string;
  status: string;
  type: string;
  output: Array<{ url: string; width: number; height: number; content_type: string }>;
  error: { code: string; message: string } | null;
  cost: { amount: number; amount_refunded: number };
  [key: string]: unknown;
}

/** A room-like test image: gradients and blocks, so inverted and original pixels differ everywhere. */
export async function roomImage(): Promise<Buffer> {
  const raw = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 3;
      raw[i] = 40 + Math.round((x / W) * 150);
      raw[i + 1] = 60 + Math.round((y / H) * 120);
      raw[i + 2] = x > 400 && x < 900 && y > 700 ? 200 : 90;
    }
  return sharp(raw, { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();
}

/** Palette mask, red over the rectangle [x0,x1)×[y0,y1) of the image. */
export async function redMask(x0: number, y0: number, x1: number, y1: number): Promise<Buffer> {
  const rgba = Buffer.alloc(W * H * 4);
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = (y * W + x) * 4;
      rgba[i] = 255;
      rgba[i + 3] = 255;
    }
  return sharp(rgba, { raw: { width: W, height: H, channels: 4 } }).png().toBuffer();
}

export async function newOrg(credit = 10_000): Promise<{ id: string; live: string; test: string }> {
  const org = await transaction((tx) => createOrganization(tx, { name: 'Backend test', tier: 9, creditCents: credit }));
  const live = await createApiKey(db(), { organizationId: org.id, mode: 'live' });
  const test = await createApiKey(db(), { organizationId: org.id, mode: 'test' });
  return { id: org.id, live: live.secret, test: test.secret };
}

/** The operator-only record of a generation's backend calls (EngineBackendRun), by attempt. */
export function backendRuns(generationId: string) {
  return db().engineBackendRun.findMany({ where: { generationId }, orderBy: { attempt: 'asc' } });
}

export async function balance(orgId: string): Promise<number> {
  return (await db().organization.findUniqueOrThrow({ where: { id: orgId } })).balanceCents;
}

export function form(fields: Record<string, string | Buffer>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'string') f.set(k, v);
    else f.set(k, new Blob([new Uint8Array(v)]), `${k}.bin`);
  }
  return f;
}

/** The output image as raw RGB at its size. */
export async function outputPixels(env: BackendTestEnv, gen: Gen): Promise<{ data: Buffer; width: number; height: number }> {
  const res = await getBytes(gen.output[0]!.url, env.certs.caPem);
  expect(res.status).toBe(200);
  const { data, info } = await sharp(res.body).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Mean absolute channel difference over a rectangle (in output pixels). */
export function meanDiff(a: Buffer, b: Buffer, width: number, rect: [number, number, number, number]): number {
  let sum = 0;
  let n = 0;
  for (let y = rect[1]; y < rect[3]; y++)
    for (let x = rect[0]; x < rect[2]; x++)
      for (let c = 0; c < 3; c++) {
        const i = (y * width + x) * 3 + c;
        sum += Math.abs(a[i]! - b[i]!);
        n++;
      }
  return sum / n;
}
