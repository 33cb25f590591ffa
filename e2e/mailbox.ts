/**
 * Reading a person's mailbox in the e2e. Without SMTP, Roomtone's mail reaches only the operator
 * (the server's log and `roomtone mail list`), never the console: these helpers read it as the
 * operator does — the CLI itself, or its table from the test side for speed (the CLI takes
 * seconds to start on a loaded machine).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { E2EState } from './global-setup';

const root = path.resolve(import.meta.dirname, '..');

/** The embedded PostgreSQL of the e2e server (DATA_DIR/postgres.json, as the CLI finds it). */
export function databaseUrl(dataDir: string): string {
  const record = JSON.parse(fs.readFileSync(path.join(dataDir, 'postgres.json'), 'utf8')) as { user: string; password: string; port: number; database: string };
  return `postgresql://${record.user}:${encodeURIComponent(record.password)}@127.0.0.1:${record.port}/${record.database}`;
}

/** The newest mail to `to` whose subject contains `subject`, waiting for it to be written (up to 20 s). */
export async function lastMail(demo: E2EState, to: string, subject: string): Promise<{ subject: string; body: string }> {
  const client = new pg.Client({ connectionString: databaseUrl(demo.dataDir) });
  await client.connect();
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { rows } = await client.query<{ subject: string; body: string }>(
        'select subject, body from "MailOutbox" where "to" = $1 and subject like $2 order by "createdAt" desc limit 1',
        [to.toLowerCase(), `%${subject}%`],
      );
      if (rows[0]) return rows[0];
      if (Date.now() > deadline) throw new Error(`no mail to ${to} about "${subject}"`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await client.end();
  }
}

/** The first link of a mail body containing `fragment`. */
export function linkIn(body: string, fragment: string): string {
  const link = (body.match(/https?:\/\/\S+/g) ?? []).find((l) => l.includes(fragment));
  if (!link) throw new Error(`no link with ${fragment} in:\n${body}`);
  return link;
}

/** `roomtone mail list --to <to> --json`, run as the operator runs it beside the server. */
export async function roomtoneMailList(demo: E2EState, to: string): Promise<{ subject: string; kind: string; text: string }[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, 'bin/roomtone.mjs'), 'mail', 'list', '--to', to, '--json'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: demo.dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    timeout: 120_000,
  });
  return (JSON.parse(stdout.trim()) as { data: { subject: string; kind: string; text: string }[] }).data;
}

/**
 * The organization's balance in cents, read as the operator does. Other e2e files add credit to
 * the demo organization while this one runs (two workers), so a screen is checked against it.
 */
export async function balanceCents(demo: E2EState): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl(demo.dataDir) });
  await client.connect();
  try {
    const { rows } = await client.query<{ balanceCents: number }>('select "balanceCents" from "Organization" where id = $1', [demo.organizationId]);
    return rows[0]!.balanceCents;
  } finally {
    await client.end();
  }
}
