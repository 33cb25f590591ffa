// Server code only: a client component that imports this fails the build.
import 'server-only';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@/generated/prisma/client';
import { config } from './config';
import { log } from './logger';

export type Db = PrismaClient;
/** The client or an interactive transaction client: service functions accept either. */
export type DbTx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

declare const insideTransaction: unique symbol;
/**
 * An interactive transaction's client, branded: only `transaction()` makes one, so functions
 * that must run inside a transaction (the ledger's: a balance change and its row commit
 * together) take `Tx` and cannot be handed `db()`.
 */
export type Tx = DbTx & { readonly [insideTransaction]: true };

type TransactionOptions = Parameters<PrismaClient['$transaction']>[1];

/** `client.$transaction(fn)` (client: `db()` unless given) whose client is a `Tx`. */
export function transaction<T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions, client: Db = db()): Promise<T> {
  return client.$transaction((tx) => fn(tx as unknown as Tx), options); // the one place a Tx is made
}

/**
 * One connection pool per process, shared by the Prisma client and the few hot-path reads
 * written in SQL (see `sql`). Kept on globalThis so hot reload and several bundles share it.
 */
const globalForDb = globalThis as unknown as { roomtoneDb?: { url: string; pool: pg.Pool; client: PrismaClient } };

export function databaseUrl(): string {
  const url = config().DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set (the launcher sets it for the embedded database).');
  return url;
}

/**
 * Every statement is prepared once per connection and then only bound and executed: PostgreSQL
 * skips parsing and planning on repeats. The name is the hash of the SQL text, so the same
 * text always maps to the same statement (Prisma's texts are parameterised; their number is
 * bounded by the query shapes of the code).
 */
const statementNames = new Map<string, string>();

function statementName(sqlText: string): string {
  let name = statementNames.get(sqlText);
  if (name === undefined) {
    name = `p_${createHash('sha1').update(sqlText).digest('base64url')}`;
    if (statementNames.size >= 5_000) statementNames.clear();
    statementNames.set(sqlText, name);
  }
  return name;
}

function database(): { pool: pg.Pool; client: PrismaClient } {
  const url = databaseUrl();
  let current = globalForDb.roomtoneDb;
  if (!current || current.url !== url) {
    const pool = new pg.Pool({ connectionString: url, max: config().DATABASE_POOL_SIZE });
    // An idle connection that breaks (server restart) must not crash the process; the pool
    // replaces it on the next checkout.
    pool.on('error', (error) => log.warn('database connection lost', { error: String(error) }));
    const adapter = new PrismaPg(pool, { statementNameGenerator: (query) => statementName(query.sql) });
    current = { url, pool, client: new PrismaClient({ adapter }) };
    globalForDb.roomtoneDb = current;
  }
  return current;
}

export function db(): PrismaClient {
  return database().client;
}

/**
 * UTC, as Prisma writes it: DateTime columns are `timestamp(3)` without zone, sent as
 * `YYYY-MM-DD HH:MM:SS[.fff]`. Read by character codes (no substrings, no Date string parser:
 * measured as a visible share of a list page's CPU). Anything else (years before 1000, BC
 * dates, infinity) takes the general path.
 */
export function parseUtcTimestamp(text: string): Date {
  const length = text.length;
  if (length >= 19 && length <= 26 && text.charCodeAt(4) === 45 && text.charCodeAt(10) === 32 && text.charCodeAt(0) !== 48) {
    const digits = (from: number, count: number) => {
      let value = 0;
      for (let i = from; i < from + count; i++) value = value * 10 + (text.charCodeAt(i) - 48);
      return value;
    };
    let ms = 0;
    if (length > 20) {
      // Fraction: up to 6 digits after the dot at 19; milliseconds rounded.
      const fraction = digits(20, length - 20);
      ms = Math.round(fraction / 10 ** (length - 20 - 3));
    }
    return new Date(Date.UTC(digits(0, 4), digits(5, 2) - 1, digits(8, 2), digits(11, 2), digits(14, 2), digits(17, 2), ms));
  }
  return new Date(`${text.replace(' ', 'T')}Z`);
}

/** A Date as a `timestamp(3)` parameter of `sql()` (UTC, as Prisma writes; pg's own Date format is local time). */
export function sqlTimestamp(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

const SQL_TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.TIMESTAMP) return parseUtcTimestamp;
    if (oid === pg.types.builtins.INT8) return BigInt;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/**
 * A statement in plain SQL, for the few on every request's path (generation reads, the request
 * log's batch insert): Prisma's per-call query compilation and result mapping cost more CPU
 * than the query itself there (bench/). Values come back as Prisma returns them (Date in UTC,
 * BigInt for int8, parsed JSON), so callers map rows to the Prisma model types. Everything
 * else goes through Prisma.
 */
export async function sql<Row>(text: string, values: readonly unknown[]): Promise<Row[]> {
  const result = await database().pool.query<Row & pg.QueryResultRow>({ name: statementName(text), text, values: values as unknown[], types: SQL_TYPES });
  return result.rows;
}

/** Connections of this process's pool (metrics); null before the first use. */
export function poolStats(): { total: number; idle: number; waiting: number } | null {
  const pool = globalForDb.roomtoneDb?.pool;
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null;
}

export async function closeDb(): Promise<void> {
  const current = globalForDb.roomtoneDb;
  if (current) {
    globalForDb.roomtoneDb = undefined;
    await current.client.$disconnect();
    await current.pool.end();
  }
}
