/** Helpers for integration tests: HTTP against the running server, fixtures through the service layer. */
import { expect, inject } from 'vitest';
import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { db, transaction } from '@/server/platform/db';
import { createOrganization } from '@/server/capabilities/orgs/orgs';
import { createApiKey } from '@/server/capabilities/keys/keys';
import type { Permission } from '@/shared/keys/permissions';
import type { Mode } from '@/generated/prisma/enums';
import { setEnv } from '@/server/platform/config';
import { DomainError } from '@/server/platform/errors';
import type { ApiError } from '@/server/doors/errors';
import { toHttpError } from '@/server/doors/errors';

setEnv('DATABASE_URL', inject('databaseUrl'));
process.env.PUBLIC_BASE_URL = inject('baseUrl');
setEnv('APP_SECRET', 'roomtone-test-secret-0123456789abcdefghijklmnop');

export const baseUrl = inject('baseUrl');

/** Each test file calls from its own fake client IP so the per-IP limit never couples files. */
export function testIp(): string {
  return `203.0.${randomInt(0, 255)}.${randomInt(1, 254)}`;
}

export interface ApiResult<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export async function api<T = Record<string, unknown>>(
  path: string,
  options: { key?: string | null; method?: string; body?: unknown; rawBody?: BodyInit; headers?: Record<string, string>; ip?: string; base?: string } = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.ip) headers['x-forwarded-for'] = options.ip;
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${options.base ?? baseUrl}${path}`, { method: options.method ?? (body ? 'POST' : 'GET'), headers, body, duplex: 'half' } as RequestInit);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON; tests asserting JSON will fail on the shape
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

export interface TestOrg {
  id: string;
  testKey: string;
  liveKey: string;
  keyIds: { test: string; live: string };
}

export async function createTestOrg(options: { tier?: number; credit?: number; name?: string } = {}): Promise<TestOrg> {
  const client = db();
  const org = await transaction((tx) =>
    createOrganization(tx, { name: options.name ?? 'Test org', tier: options.tier ?? 9, creditCents: options.credit ?? 10_000 }),
  );
  const test = await createApiKey(client, { organizationId: org.id, mode: 'test' });
  const live = await createApiKey(client, { organizationId: org.id, mode: 'live' });
  return { id: org.id, testKey: test.secret, liveKey: live.secret, keyIds: { test: test.id, live: live.id } };
}

/**
 * Holds every generation of this organization in progress on the test server (after its engine
 * work, on its worker slot) for up to `ms`, or until the returned function lifts the hold: for
 * tests that cancel before a start or queue behind busy slots. Other organizations run at full
 * speed (engine/emulated-timing.ts).
 */
export function holdGenerations(organizationId: string, ms = 60_000): () => void {
  const file = path.join(inject('engineHoldsDir'), organizationId);
  fs.writeFileSync(file, String(ms));
  return () => fs.rmSync(file, { force: true });
}

export async function createKey(organizationId: string, mode: Mode, permissions: Permission[]): Promise<string> {
  return (await createApiKey(db(), { organizationId, mode, permissions })).secret;
}

export function expectErrorShape(body: unknown): asserts body is { error: { code: string; message: string; param?: string } } {
  const b = body as { error?: { code?: unknown; message?: unknown } };
  if (!b || typeof b !== 'object' || !b.error || typeof b.error.code !== 'string' || typeof b.error.message !== 'string') {
    throw new Error(`not an error envelope: ${JSON.stringify(body)}`);
  }
}

/**
 * A refusal thrown by the service layer, as the HTTP doors render it (the status of the one
 * code → status table, Retry-After from retryAfterSeconds). Fails unless it is a DomainError.
 */
export function rendered(error: unknown): ApiError {
  expect(error).toBeInstanceOf(DomainError);
  return toHttpError(error as DomainError);
}

/** The refusal `promise` rejects with, rendered as the HTTP doors do; fails if it resolves. */
export async function refusalOf(promise: Promise<unknown>): Promise<ApiError> {
  const outcome = await promise.then(
    () => ({ resolved: true as const }),
    (error: unknown) => ({ resolved: false as const, error }),
  );
  if (outcome.resolved) throw new Error('expected a refusal, the call succeeded');
  return rendered(outcome.error);
}
