// @worker-process shared: a roomtone worker it stops and waits for (SIGTERM, exit 0) beside the shared server; it sets no environment
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import sharp from 'sharp';
import { api, baseUrl, createTestOrg, holdGenerations, testIp } from './support';
import { db } from '@/server/platform/db';

const root = path.resolve(import.meta.dirname, '..');
const ip = testIp();

describe('roomtone worker (scale-out)', () => {
  it('runs job workers alone against the same database, and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['bin/roomtone.mjs', 'worker', '--json'], { cwd: root, env: { ...process.env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const deadline = Date.now() + 60_000;
    while (!stdout.includes('"running"')) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`worker did not start: ${stdout}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(JSON.parse(stdout.trim())).toMatchObject({ object: 'worker', status: 'running' });
    // Jobs are still processed with an extra worker competing for them.
    const org = await createTestOrg();
    const png = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#8899aa' } }).png().toBuffer();
    const form = new FormData();
    form.set('image', new Blob([new Uint8Array(png)]), 'a.png');
    form.set('scale', 'x2');
    const res = await api<{ status: string }>('/v1/upscales', { key: org.testKey, ip, rawBody: form });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('succeeded');
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    expect(code, stderr).toBe(0);
  }, 120_000);
});

describe('a lost connection never stops the generation', () => {
  it('a synchronous creation whose client hangs up still ends, readable afterwards', async () => {
    const org = await createTestOrg();
    const png = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#aa9988' } }).png().toBuffer();
    const form = new FormData();
    form.set('image', new Blob([new Uint8Array(png)]), 'a.png');
    form.set('scale', 'x4');
    form.set('metadata', JSON.stringify({ probe: 'hang-up' }));
    // Held in progress until the client has hung up (it would otherwise end before).
    const release = holdGenerations(org.id);
    const controller = new AbortController();
    const pending = fetch(`${baseUrl}/v1/upscales`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.testKey}`, 'x-forwarded-for': ip },
      body: form,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    // Wait until it is admitted, then hang up.
    const deadline = Date.now() + 30_000;
    let id: string | undefined;
    while (!id) {
      if (Date.now() > deadline) throw new Error('not admitted');
      id = (await db().generation.findFirst({ where: { organizationId: org.id }, select: { id: true } }))?.id;
      await new Promise((r) => setTimeout(r, 50));
    }
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    release();
    const end = Date.now() + 60_000;
    let status = 'in_progress';
    while (status === 'in_progress' && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await api<{ status: string }>(`/v1/generations/${id}`, { key: org.testKey, ip })).body.status;
    }
    expect(status).toBe('succeeded');
  });
});
