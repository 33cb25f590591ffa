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
 * written in SQL (see `sql`).
 */
let opened: { url: string; pool: pg.Pool; client: PrismaClient } | undefined;

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


const UNREACHABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATE: admin or crash shutdown, starting up, too many connections (class 08: connection exceptions). */
const UNAVAILABLE_SQLSTATE = new Set(['57P01', '57P02', '57P03', '53300']);
/** Prisma: can't reach, timed out, server closed the connection. */
const UNREACHABLE_PRISMA = new Set(['P1001', 'P1002', 'P1008', 'P1017']);
/** Prisma's driver adapter: the same, as error kinds. */
const UNREACHABLE_ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TlsConnectionError']);
/** pg and pg-pool say these when the connection is gone or cannot be made. */
const UNREACHABLE_PG_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout)/;

/** A statement failed because the database could not be reached (raised by `sql`). */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`database unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

/** What pg or its pool raise when the connection cannot be made or is lost (network errno included: we know it came from the database). */
function isPgConnectionError(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && (UNREACHABLE_ERRNO.has(e.code) || UNAVAILABLE_SQLSTATE.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code))) return true;
  return typeof e.message === 'string' && UNREACHABLE_PG_MESSAGE.test(e.message);
}

/**
 * True when `error` says the database could not be reached or dropped the connection (down,
 * restarting, unreachable) rather than refused a query: `sql` marks its own, Prisma and its
 * driver adapter have their codes. The doors answer those 503 service_unavailable.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  // The error, its causes, and Prisma's driver adapter error (meta.driverAdapterError, whose cause has the kind).
  const queue: unknown[] = [error];
  for (let seen = 0; queue.length > 0 && seen < 8; seen++) {
    const current = queue.shift();
    if (current === null || typeof current !== 'object') continue;
    if (current instanceof DatabaseUnavailableError) return true;
    const e = current as { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
    if (typeof e.code === 'string' && (UNREACHABLE_PRISMA.has(e.code) || UNAVAILABLE_SQLSTATE.has(e.code))) return true;
    if (typeof e.kind === 'string' && UNREACHABLE_ADAPTER_KINDS.has(e.kind)) return true;
    if (typeof e.message === 'string' && UNREACHABLE_PG_MESSAGE.test(e.message)) return true;
    queue.push(e.cause, e.meta?.driverAdapterError);
  }
  return false;
}

function database(): { pool: pg.Pool; client: PrismaClient } {
  const url = databaseUrl();
  let current = opened;
  if (!current || current.url !== url) {
    // A database that stalls (paused, black-holed: not refusing) must not hold requests. A
    // connection not had within DATABASE_ACQUIRE_TIMEOUT_MS (new, or a pooled one to come free)
    // and a statement not answered within DATABASE_STATEMENT_TIMEOUT_MS (pg's client-side
    // read timeout) count as the database being down: 503 service_unavailable. The server's own
    // statement_timeout, a second later, ends a statement the client gave up on.
    // Idle connections stay DATABASE_POOL_IDLE_MS (node-postgres closes them after 10 s, so the
    // first requests after any 10 s lull each opened a connection: a backend fork and an
    // authentication in their path).
    const c = config();
    const pool = new pg.Pool({
      connectionString: url,
      max: c.DATABASE_POOL_SIZE,
      idleTimeoutMillis: c.DATABASE_POOL_IDLE_MS,
      connectionTimeoutMillis: c.DATABASE_ACQUIRE_TIMEOUT_MS,
      ...(c.DATABASE_STATEMENT_TIMEOUT_MS > 0 ? { query_timeout: c.DATABASE_STATEMENT_TIMEOUT_MS, statement_timeout: c.DATABASE_STATEMENT_TIMEOUT_MS + 1_000 } : {}),
    });
    // An idle connection that breaks (server restart) must not crash the process; the pool
    // replaces it on the next checkout.
    pool.on('error', (error) => log.warn('database connection lost', { error: String(error) }));
    const adapter = new PrismaPg(pool, { statementNameGenerator: (query) => statementName(query.sql) });
    current = { url, pool, client: new PrismaClient({ adapter }) };
    opened = current;
  }
  return current;
}

export function db(): PrismaClient {
  return database().client;
}

/**
 * UTC, as Prisma writes it: DateTime columns are `timestamp(3)` without zone, sent as
 * `YYYY-MM-DD HH:MM:SS[.fff]`. Read by character codes (no substrings, no Date string parser:
 * measured as a visible share of a list page's CPU), as milliseconds since the epoch. Anything
 * else (years before 1000, BC dates, infinity) takes the general path (NaN when unreadable, as
 * an invalid Date's time).
 */
export function parseUtcEpochMs(text: string): number {
  const length = text.length;
  if (length >= 19 && length <= 26 && text.charCodeAt(4) === 45 && text.charCodeAt(10) === 32 && text.charCodeAt(0) !== 48) {
    let ms = 0;
    if (length > 20) {
      // Fraction: up to 6 digits after the dot at 19; milliseconds rounded.
      const fraction = digitsAt(text, 20, length - 20);
      ms = Math.round(fraction / 10 ** (length - 20 - 3));
    }
    return Date.UTC(digitsAt(text, 0, 4), digitsAt(text, 5, 2) - 1, digitsAt(text, 8, 2), digitsAt(text, 11, 2), digitsAt(text, 14, 2), digitsAt(text, 17, 2), ms);
  }
  return Date.parse(`${text.replace(' ', 'T')}Z`);
}

/** parseUtcEpochMs as a Date (what Prisma returns for the column). */
export function parseUtcTimestamp(text: string): Date {
  return new Date(parseUtcEpochMs(text));
}

/**
 * A module-level function, not a closure: nothing is allocated per value on this hot path.
 */
function digitsAt(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) value = value * 10 + (text.charCodeAt(i) - 48);
  return value;
}

/** A Date as a `timestamp(3)` parameter of `sql()` (UTC, as Prisma writes; pg's own Date format is local time). */
export function sqlTimestamp(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

/** The last second sqlTimestampOfMs formatted, and its text up to the seconds. */
let formattedSecond = { second: Number.NaN, text: '' };

/**
 * sqlTimestamp of milliseconds since the epoch, without a Date per call: the request log
 * writes one per line, in order, so the text up to the seconds is made once per second.
 */
export function sqlTimestampOfMs(epochMs: number): string {
  const ms = Math.floor(epochMs);
  const second = Math.floor(ms / 1000);
  if (second !== formattedSecond.second) formattedSecond = { second, text: sqlTimestamp(new Date(second * 1000)).slice(0, -4) };
  const milli = ms - second * 1000;
  return `${formattedSecond.text}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}`;
}

/** How `sql()` gives a `timestamp` column: a Date (as Prisma), or milliseconds since the epoch. */
export type SqlTimestamps = 'date' | 'epochMs';

function sqlTypes(timestamp: (text: string) => Date | number): pg.CustomTypesConfig {
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === pg.types.builtins.TIMESTAMP) return timestamp;
      if (oid === pg.types.builtins.INT8) return BigInt;
      return pg.types.getTypeParser(oid, format);
    },
  } as pg.CustomTypesConfig;
}

const SQL_TYPES: Record<SqlTimestamps, pg.CustomTypesConfig> = { date: sqlTypes(parseUtcTimestamp), epochMs: sqlTypes(parseUtcEpochMs) };

/** A statement of `sql()`: what is the same on every call, and how its rows were last described. */
interface Statement {
  name: string;
  text: string;
  types: pg.CustomTypesConfig;
  rows?: RowSetup;
}

/** What pg's Result makes of a RowDescription: the fields, a parser per field, the empty row it copies per row. */
interface RowSetup {
  fields: pg.FieldDef[];
  parsers: unknown;
  empty: unknown;
}

/** The parts of pg 8's Result (lib/result.js) that addFields sets. */
interface ResultFields {
  fields: pg.FieldDef[];
  _parsers: unknown;
  _prebuiltEmptyResultObject: unknown;
}

function sameFields(a: readonly pg.FieldDef[], b: readonly pg.FieldDef[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as pg.FieldDef;
    const y = b[i] as pg.FieldDef;
    if (x.name !== y.name || x.dataTypeID !== y.dataTypeID || x.format !== y.format) return false;
  }
  return true;
}

/**
 * pg's Result, with what it makes of a RowDescription kept per statement: pg builds it again
 * for every execution (a parser looked up per field, and an empty row as a dictionary-mode
 * object then copied), measured about 5 µs for a generation's 18 columns, more than parsing
 * the row. A description with the same names, types and formats reuses the last one's (pg only
 * reads them); any other is built by pg and kept instead.
 */
class StatementResult extends pg.Result {
  constructor(private readonly statement: Statement) {
    super(undefined as unknown as string, statement.types as unknown as typeof pg.types);
  }

  addFields(fields: pg.FieldDef[]): void {
    const self = this as unknown as ResultFields;
    const setup = this.statement.rows;
    if (setup !== undefined && sameFields(setup.fields, fields)) {
      self.fields = fields;
      self._parsers = setup.parsers;
      self._prebuiltEmptyResultObject = setup.empty;
      return;
    }
    (pg.Result.prototype as unknown as { addFields(fields: pg.FieldDef[]): void }).addFields.call(this, fields);
    this.statement.rows = { fields, parsers: self._parsers, empty: self._prebuiltEmptyResultObject };
  }
}

/** The parts of pg 8's Query (lib/query.js) a statement sets after construction. */
interface QueryStatement {
  name: string;
  types: pg.CustomTypesConfig;
  _result: pg.Result;
  _results: pg.Result;
}

/**
 * One execution of a statement: a pg Query built from the text and values alone, then given
 * the statement's name, type parsers and Result. Built from a config object, pg copies the
 * config with its property descriptors on every query (measured, a visible share of a cached
 * read's CPU).
 */
class StatementQuery extends pg.Query {
  constructor(statement: Statement, values: unknown[]) {
    super(statement.text, values);
    const self = this as unknown as QueryStatement;
    self.name = statement.name;
    self.types = statement.types;
    self._result = self._results = new StatementResult(statement);
  }
}

const statements: Record<SqlTimestamps, Map<string, Statement>> = { date: new Map(), epochMs: new Map() };

function statementOf(text: string, timestamps: SqlTimestamps): Statement {
  const known = statements[timestamps];
  let statement = known.get(text);
  if (statement === undefined) {
    statement = { name: statementName(text), text, types: SQL_TYPES[timestamps] };
    if (known.size >= 5_000) known.clear();
    known.set(text, statement);
  }
  return statement;
}

/**
 * A statement in plain SQL, for the few on every request's path (generation reads, the request
 * log's batch insert): Prisma's per-call query compilation and result mapping cost more CPU
 * than the query itself there (bench/). Values come back as Prisma returns them (Date in UTC,
 * BigInt for int8, parsed JSON), so callers map rows to the Prisma model types. Everything
 * else goes through Prisma. `timestamps: 'epochMs'` gives timestamps as milliseconds since the
 * epoch instead, for a read that only turns them into numbers (the /v1 generation reads): in a
 * process that has loaded Next.js, `Date` is Next's wrapper around the native constructor,
 * several times the cost of the parse itself per value.
 */
export async function sql<Row>(text: string, values: readonly unknown[], timestamps: SqlTimestamps = 'date'): Promise<Row[]> {
  try {
    // pg-pool answers a query object with a promise of its result (its types say the object).
    const query = new StatementQuery(statementOf(text, timestamps), values as unknown[]);
    const result = (await (database().pool.query(query) as unknown as Promise<pg.QueryResult<Row & pg.QueryResultRow>>));
    return result.rows;
  } catch (error) {
    throw isPgConnectionError(error) ? new DatabaseUnavailableError(error) : error;
  }
}

/** Connections of this process's pool (metrics); null before the first use. */
export function poolStats(): { total: number; idle: number; waiting: number } | null {
  const pool = opened?.pool;
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null;
}

export async function closeDb(): Promise<void> {
  const current = opened;
  if (current) {
    opened = undefined;
    await current.client.$disconnect();
    await current.pool.end();
  }
}
