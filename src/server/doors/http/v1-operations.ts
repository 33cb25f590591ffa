import type { z } from 'zod';
import { $ZodAsyncError } from 'zod/v4/core';
import { ApiError, apiErrorFromZodIssues } from '@/server/doors/errors';
import type { AuthenticatedKey } from '@/server/capabilities/keys/keys';
import { readProvingKey } from '@/server/capabilities/keys/revocation-proof';
import type { TrpcContext } from '@/server/doors/trpc/context';
import { assertPermitted, type ProcedureMeta } from '@/server/doors/trpc/init';
import { v1Router } from '@/server/doors/trpc/v1-router';

/**
 * The /v1 adapter: each procedure of trpc/v1-router.ts with OpenAPI meta is one operation
 * (method, path), called with the same definitions tRPC runs for the console and MCP: the
 * permission check of its meta (trpc/init.ts), its input schema, its resolver, its output
 * schema (unless the meta says the resolver's serializer built the answer: `outputSerialized`).
 * Only tRPC's middleware chain is left out, for cost (measured, it and a general
 * adapter cost more CPU than a generation read itself): the table is built at start and
 * refuses a procedure with any other middleware, so no check can be skipped silently.
 *
 * The request's input is what the OpenAPI document (trpc-to-openapi's generator over the same
 * procedures) describes: for GET the query (a repeated name becomes an array, which the string
 * schemas refuse), for other methods the JSON body, with the path's parameters over either;
 * paths match case-insensitively and without a trailing slash. No coercion: query values are
 * validated as strings (doors/params.ts).
 */
export interface V1Operation {
  readonly method: string;
  /** The OpenAPI path, e.g. `/generations/{id}`. */
  readonly path: string;
  readonly type: 'query' | 'mutation';
  readonly meta: ProcedureMeta;
  match(path: string): Record<string, string> | null;
  call(ctx: TrpcContext, input: Record<string, unknown>): Promise<unknown>;
}

interface ProcedureDef {
  type: 'query' | 'mutation' | 'subscription';
  meta?: ProcedureMeta;
  inputs: z.ZodType[];
  output?: z.ZodType;
  middlewares: unknown[];
  resolver: (opts: { ctx: TrpcContext; input: unknown; meta: ProcedureMeta | undefined; path: string; type: string; signal: undefined }) => Promise<unknown>;
}

type Parsed = z.ZodSafeParseResult<unknown>;

/** Parse with `schema`, synchronously (no promise on the hot path) unless it holds an async refinement. */
function parsed(schema: z.ZodType, value: unknown): Parsed | Promise<Parsed> {
  try {
    return schema.safeParse(value);
  } catch (error) {
    if (error instanceof $ZodAsyncError) return schema.safeParseAsync(value);
    throw error;
  }
}

function operationOf(procedurePath: string, def: ProcedureDef): V1Operation {
  const openapi = def.meta?.openapi;
  if (!openapi || def.type === 'subscription') throw new Error(`${procedurePath}: not a /v1 operation`);
  // Its permission check, one middleware per input and output, and the resolver's own.
  const expected = 1 + def.inputs.length + (def.output ? 1 : 0) + 1;
  if (!def.meta?.permissions || def.middlewares.length !== expected || def.inputs.length > 1) {
    throw new Error(`${procedurePath}: a /v1 procedure takes one input and no middleware but its permission check (http/v1-operations.ts runs no other)`);
  }
  const params: string[] = [];
  const source = openapi.path.replace(/^\/|\/$/g, '').replace(/\{(.+?)\}/g, (_, name: string) => {
    params.push(name);
    return '([^/]+)';
  });
  const pattern = new RegExp(`^/${source}$`, 'i');
  const input = def.inputs[0];
  const output = def.output;
  const meta = def.meta;
  return {
    method: openapi.method,
    path: openapi.path,
    type: def.type,
    meta,
    match(path) {
      const found = pattern.exec(path);
      if (!found) return null;
      const values: Record<string, string> = {};
      params.forEach((name, i) => (values[name] = found[i + 1]!));
      return values;
    },
    async call(ctx, raw) {
      const caller = assertPermitted(ctx.caller, meta);
      let value: unknown = raw;
      if (input) {
        const pending = parsed(input, raw);
        const result = pending instanceof Promise ? await pending : pending;
        if (!result.success) throw apiErrorFromZodIssues(result.error.issues);
        value = result.data;
      }
      const data = await def.resolver({ ctx: caller === ctx.caller ? ctx : { ...ctx, caller }, input: value, meta, path: procedurePath, type: def.type, signal: undefined });
      if (!output || meta.outputSerialized) return data;
      const pendingOutput = parsed(output, data);
      const checked = pendingOutput instanceof Promise ? await pendingOutput : pendingOutput;
      if (!checked.success) throw new Error(`${procedurePath}: output validation failed: ${checked.error.message}`);
      return checked.data;
    },
  };
}

const OPERATIONS: readonly V1Operation[] = Object.entries(v1Router._def.procedures as unknown as Record<string, { _def: ProcedureDef }>)
  .filter(([, procedure]) => procedure._def.meta?.openapi)
  .map(([path, procedure]) => operationOf(path, procedure._def));

export interface FoundOperation {
  operation: V1Operation;
  pathInput: Record<string, string>;
}

/** The operation behind `method` and a /v1 URL's path, or null (404 route_not_found). */
export function findOperation(method: string, pathname: string): FoundOperation | null {
  // A trailing slash names the same path: `/v1/generations/` is `/generations`.
  const path = `/${pathname.slice('/v1'.length).replace(/^\/|\/$/g, '')}`;
  for (const operation of OPERATIONS) {
    if (operation.method !== method) continue;
    const pathInput = operation.match(path);
    if (pathInput) return { operation, pathInput };
  }
  return null;
}

/** The query as the input of a GET: one value per name, an array for a repeated name. */
export function queryInput(search: URLSearchParams): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [name, value] of search) {
    const seen = query[name];
    if (seen === undefined) query[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else query[name] = [seen, value];
  }
  return query;
}

/** An empty page: what a read proving its key must confirm (a revoked key reads nothing). */
function foundSomething(result: unknown): boolean {
  const data = (result as { data?: unknown } | null)?.data;
  return !(Array.isArray(data) && data.length === 0);
}

/**
 * One /v1 operation: the procedure's answer (the status and headers it set are on
 * `ctx.response`). A key served from the cache without the revocation barrier is proved
 * unrevoked by the read itself (the operation's meta says `provesKey`), or confirmed.
 */
export function runOperation(found: FoundOperation, ctx: TrpcContext, input: Record<string, unknown>, key: AuthenticatedKey, ip: string | null): Promise<unknown> {
  const { operation, pathInput } = found;
  const withPath = { ...input, ...pathInput };
  if (!key.revocationUnchecked) return operation.call(ctx, withPath);
  if (!operation.meta.provesKey) throw new Error(`${operation.method} ${operation.path}: the key was taken without its revocation barrier, and this operation does not prove it`);
  // The request's own context, not a copy per read: a second read (without the proof) starts only after the first ended.
  return readProvingKey(
    key,
    ip,
    (unrevokedKeyId) => {
      ctx.unrevokedKeyId = unrevokedKeyId;
      ctx.unrevokedKeySecretHash = unrevokedKeyId ? key.secretHash : undefined;
      return operation.call(ctx, withPath);
    },
    foundSomething,
  );
}

/** An unknown /v1 path or method. */
export const routeNotFound = (): ApiError => new ApiError('route_not_found', 'Unrecognized request URL.');
