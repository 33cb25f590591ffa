/**
 * The driver adapter the schema engine migrates through: `@prisma/adapter-pg` 7.10.1 with its
 * four bugs on the migration path worked around (see "Workaround 1".."4" below).
 */
import { randomUUID } from 'node:crypto';

import { PrismaPg } from '@prisma/adapter-pg';
import {
  ColumnTypeEnum,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
  type SqlQueryable,
  type SqlResultSet,
} from '@prisma/driver-adapter-utils';
import pg from 'pg';

import { errorMessage, MigrationError } from './migration-error';

/** Discrete connection fields (see workaround 2 for why not a connectionString). */
export interface ConnFields {
  host: string;
  port: number;
  user: string | undefined;
  password: string | undefined;
  database: string;
  ssl: pg.PoolConfig['ssl'];
  /** PostgreSQL schema from `?schema=` (Prisma URL convention), default public. */
  schema: string | undefined;
}

export function parseConnectionString(connectionString: string): ConnFields {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    throw new MigrationError('DATABASE_URL is not a valid postgresql:// URL');
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') {
    throw new MigrationError(`Unsupported database URL protocol ${url.protocol} (expected postgresql://)`);
  }
  const q = url.searchParams;
  // sslmode as pg 8 (pg-connection-string 2.x) reads it, so this tool connects exactly
  // like the app's own `connectionString` pool: prefer/require/verify-ca are aliases of
  // verify-full; no-verify encrypts without checking the certificate.
  const sslmode = q.get('sslmode');
  const ssl: pg.PoolConfig['ssl'] =
    sslmode === null
      ? undefined // pg then applies PGSSLMODE, as for any pg connection
      : sslmode === 'disable'
        ? false
        : sslmode === 'no-verify'
          ? { rejectUnauthorized: false }
          : true;
  for (const unsupported of ['sslrootcert', 'sslcert', 'sslkey', 'options']) {
    if (q.has(unsupported)) throw new MigrationError(`Database URL parameter ${unsupported} is not supported by the migration tool`);
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  return {
    // `?host=/var/run/postgresql` selects a unix socket directory, as libpq does.
    host: q.get('host') ?? (url.hostname.replace(/^\[|\]$/g, '') || 'localhost'),
    port: url.port ? Number(url.port) : 5432,
    user: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    database: database || 'postgres',
    ssl,
    schema: q.get('schema') ?? undefined,
  };
}

/**
 * Workaround 1 — prisma/orm#27403: adapter-pg maps result column types by OID and throws
 * "Unsupported column type …" ("could not be deserialized") for catalog types it does not
 * know: notably `"char"` (oid 18: pg_constraint.contype, pg_class.relkind, … which the
 * engine's describer selects) and `void` (2278); 6.x also lacked `name` (19). A pg.Client
 * subclass (handed to the pool as `Client`) relabels every unmapped low-OID field before
 * the adapter reads the field list: as text (25), or text[] (1009) when pg parsed the
 * value to an array. User types (OID >= 16384) are untouched (the adapter maps them to
 * text itself).
 *
 * `"char"` needs more than text: the describer reads it with `as char`, which rejects a
 * Text value and panics the engine ("Getting constraint_type … as char failed"; measured
 * on PostgreSQL 18, where every NOT NULL column has a pg_constraint row of contype 'n',
 * so any table triggers it). adapter-pg has no OID that maps to ColumnType.Character,
 * so we note which columns were `"char"` against the result's `rows` array (which
 * adapter-pg passes through as is) and `withCharColumns` retypes them after queryRaw.
 */
const ADAPTER_PG_MAPPED_OIDS = new Set([
  // scalars (adapter-pg 7.10.1 src/conversion.ts fieldToColumnType)
  16, 17, 19, 20, 21, 23, 25, 26, 114, 142, 650, 700, 701, 790, 869, 1042, 1043, 1082, 1083, 1114, 1184,
  1266, 1560, 1562, 1700, 2950, 3802,
  // arrays
  143, 199, 651, 791, 1000, 1001, 1002, 1005, 1007, 1009, 1014, 1015, 1016, 1021, 1022, 1028, 1041, 1115, 1182,
  1183, 1185, 1231, 1561, 1563, 2951, 3807,
]);
const FIRST_NORMAL_OBJECT_ID = 16384;
const CHAR_OID = 18;
const TEXT_OID = 25;
const TEXT_ARRAY_OID = 1009;

/** Result `rows` array → indices of its `"char"` columns (see workaround 1). */
const charColumnsByRows = new WeakMap<object, number[]>();

interface PgResultLike {
  fields?: { dataTypeID: number }[];
  rows?: unknown[];
}

function relabelCatalogTypes(result: unknown): void {
  for (const r of Array.isArray(result) ? (result as unknown[]) : [result]) {
    if (typeof r !== 'object' || r === null) continue;
    const { fields, rows } = r as PgResultLike;
    if (!Array.isArray(fields)) continue;
    const charColumns: number[] = [];
    fields.forEach((field, i) => {
      if (field.dataTypeID >= FIRST_NORMAL_OBJECT_ID || ADAPTER_PG_MAPPED_OIDS.has(field.dataTypeID)) return;
      if (field.dataTypeID === CHAR_OID) charColumns.push(i);
      const sample = rows?.map((row) => (Array.isArray(row) ? row[i] : undefined)).find((v) => v != null);
      field.dataTypeID = Array.isArray(sample) ? TEXT_ARRAY_OID : TEXT_OID;
    });
    if (charColumns.length > 0 && Array.isArray(rows)) charColumnsByRows.set(rows, charColumns);
  }
}

/** Gives `"char"` columns (workaround 1) the Character column type the engine expects. */
function withCharColumns<Q extends SqlQueryable>(queryable: Q): Q {
  const queryRaw = queryable.queryRaw.bind(queryable);
  return Object.assign(Object.create(queryable) as Q, {
    queryRaw: async (query: SqlQuery): Promise<SqlResultSet> => {
      const result = await queryRaw(query);
      for (const i of charColumnsByRows.get(result.rows) ?? []) result.columnTypes[i] = ColumnTypeEnum.Character;
      return result;
    },
  });
}

/** pg.Client whose query results never carry catalog types adapter-pg cannot map. */
class CatalogSafeClient extends pg.Client {}
{
  const baseQuery = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
  // Patched on the prototype rather than declared as an override: pg.Client#query has a
  // dozen overloads (promise and callback styles) that one override signature cannot match.
  (CatalogSafeClient.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (
    this: pg.Client,
    ...args: unknown[]
  ): unknown {
    const first = args[0] as { submit?: unknown } | null | undefined;
    if (typeof first === 'object' && first !== null && typeof first.submit === 'function') {
      return baseQuery.apply(this, args); // Submittable (cursor/stream): leave alone
    }
    // pg-pool's Pool#query uses the callback style: wrap the (last) callback.
    const cbIndex = args.findIndex((a) => typeof a === 'function');
    if (cbIndex !== -1) {
      const cb = args[cbIndex] as (err: Error | null, res: unknown) => void;
      args[cbIndex] = (err: Error | null, res: unknown) => {
        if (!err) relabelCatalogTypes(res);
        cb(err, res);
      };
      return baseQuery.apply(this, args);
    }
    return (baseQuery.apply(this, args) as Promise<unknown>).then((res) => {
      relabelCatalogTypes(res);
      return res;
    });
  };
}

/**
 * The driver adapter factory handed to the engine: adapter-pg underneath (with the
 * CatalogSafeClient of workaround 1), plus workarounds 2–4. Owns every pool and temporary
 * (shadow, scratch) database it creates, so `close()` can release them all even when the
 * engine never calls dispose.
 */
export class MigrationPgFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName = '@prisma/adapter-pg';
  private readonly pools = new Set<pg.Pool>();
  /** Shadow and scratch databases we created and must drop. */
  private readonly tempDbs = new Set<string>();
  /** Database the engine's main connection uses: the URL's, or a scratch one. */
  private target: string;

  constructor(
    private readonly conn: ConnFields,
    private readonly warn: ((message: string) => void) | undefined,
  ) {
    this.target = conn.database;
  }

  private poolConfig(database: string): pg.PoolConfig {
    const { host, port, user, password, ssl, schema } = this.conn;
    return {
      host,
      port,
      user,
      password,
      ssl,
      database,
      // `?schema=` (Prisma's URL convention): migration scripts use unqualified names,
      // so they must run with that schema first on the search path.
      ...(schema ? { options: `-c search_path=${quoteIdent(schema)}` } : {}),
      Client: CatalogSafeClient,
      max: 4,
    };
  }

  private async openPool(database: string): Promise<{ pool: pg.Pool; adapter: SqlDriverAdapter }> {
    const pool = new pg.Pool(this.poolConfig(database));
    pool.on('error', (err) => this.warn?.(`pool error: ${err.message}`));
    this.pools.add(pool);
    // An external pool: adapter-pg will not end it; we do, in dispose()/close().
    const schema = this.conn.schema;
    const adapter = await new PrismaPg(pool, schema ? { schema } : undefined).connect();
    return { pool, adapter };
  }

  private async endPool(pool: pg.Pool): Promise<void> {
    if (!this.pools.delete(pool)) return; // pg throws if end() is called twice
    await pool.end();
  }

  async connect(): Promise<SqlDriverAdapter> {
    const { pool, adapter } = await this.openPool(this.target);
    return wholeScriptAdapter(adapter, () => this.endPool(pool));
  }

  /**
   * Workaround 2: adapter-pg's connectToShadowDb builds the shadow pool as
   * `{ ...config, database }`, but with a connectionString config pg lets the URL's
   * database override `database` — the "shadow" database is then the real one, which the
   * engine resets. We connect with discrete host/port/user/database fields.
   *
   * Workaround 3: adapter-pg's shadow dispose runs DROP DATABASE before ending the shadow
   * pool, so the drop fails ("is being accessed by other users") and shadow databases
   * pile up. We end the pool first, then drop.
   */
  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    const name = await this.createTempDatabase('shadow');
    const { pool, adapter } = await this.openPool(name);
    return wholeScriptAdapter(adapter, async () => {
      await this.endPool(pool);
      await this.dropTempDatabase(name);
    });
  }

  /** Points the engine's main connection at a new empty database (see createMigration). */
  async useScratchDatabase(): Promise<void> {
    this.target = await this.createTempDatabase('scratch');
  }

  private async createTempDatabase(kind: 'shadow' | 'scratch'): Promise<string> {
    const name = `prisma_migrate_${kind}_db_${randomUUID().replaceAll('-', '')}`;
    await this.admin(`CREATE DATABASE ${quoteIdent(name)}`).catch((error: unknown) => {
      throw new MigrationError(
        `Could not create a temporary ${kind} database (the database user needs the CREATEDB privilege): ${errorMessage(error)}`,
        undefined,
        { cause: error },
      );
    });
    this.tempDbs.add(name);
    return name;
  }

  private async dropTempDatabase(name: string): Promise<void> {
    if (!this.tempDbs.delete(name)) return;
    await this.admin(`DROP DATABASE IF EXISTS ${quoteIdent(name)}`);
  }

  /** Runs one statement on a short-lived connection to the URL's database. */
  private async admin(sql: string): Promise<void> {
    const client = new pg.Client(this.poolConfig(this.conn.database));
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  async appliedMigrationNames(): Promise<string[]> {
    const table = this.conn.schema ? `${quoteIdent(this.conn.schema)}._prisma_migrations` : '_prisma_migrations';
    const client = new pg.Client(this.poolConfig(this.target));
    await client.connect();
    try {
      const res = await client.query<{ migration_name: string }>(
        `SELECT migration_name FROM ${table}
          WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL
          ORDER BY started_at, migration_name`,
      );
      return [...new Set(res.rows.map((r) => r.migration_name))];
    } finally {
      await client.end();
    }
  }

  /** Ends every pool still open, then drops the temporary databases left. Never throws. */
  async close(): Promise<void> {
    for (const pool of [...this.pools]) {
      await this.endPool(pool).catch((e: unknown) => this.warn?.(`closing pool: ${errorMessage(e)}`));
    }
    for (const name of [...this.tempDbs]) {
      await this.dropTempDatabase(name).catch((e: unknown) =>
        this.warn?.(`could not drop temporary database ${name}: ${errorMessage(e)}`),
      );
    }
  }
}

/**
 * Workaround 4: adapter-pg's executeScript splits the script on every `;` and runs the
 * pieces one by one, which breaks valid SQL (a `;` inside a string default, a plpgsql
 * body). We send the whole script as one simple-protocol query instead: executeRaw with
 * no parameters goes through pg's simple query protocol, which accepts several
 * statements, and keeps adapter-pg's error mapping. Also installs our dispose (2/3).
 */
function wholeScriptAdapter(inner: SqlDriverAdapter, dispose: () => Promise<void>): SqlDriverAdapter {
  const queryable = withCharColumns(inner);
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    queryRaw: (query) => queryable.queryRaw(query),
    executeRaw: (query) => inner.executeRaw(query),
    startTransaction: async (isolationLevel) => withCharColumns(await inner.startTransaction(isolationLevel)),
    executeScript: async (script) => {
      await inner.executeRaw({ sql: script, args: [], argTypes: [] });
    },
    getConnectionInfo: () => inner.getConnectionInfo?.() ?? { supportsRelationJoins: true },
    dispose,
  };
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
