/**
 * `roomtone` admin CLI. Every command accepts --json and then prints exactly one JSON document
 * on stdout (logs go to stderr). Bad arguments: a clear message and exit code 2; a refused
 * operation: exit code 1. `runCli` runs one command and answers its exit code; `npx roomtone`
 * is bin/roomtone.mjs → ./bin.ts, and tests call `runCli` in their own process.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { db, transaction } from '@/server/platform/db';
import { DomainError } from '@/server/platform/errors';
import { createOrganization, createUser } from '@/server/capabilities/orgs/orgs';
import { createApiKey, listApiKeys, revokeApiKey } from '@/server/capabilities/keys/keys';
import { PERMISSIONS, permissionSchema } from '@/shared/keys/permissions';
import { isKnownTier, TIERS } from '@/server/capabilities/billing/pricing';
import { BILLING_USAGE, isBillingCommand, runBillingCommand } from './billing';
import { PASSWORD_MIN_LENGTH } from '@/shared/auth/password-rules';
import { OPERATOR } from '@/server/capabilities/audit/actor';
import { recordAudit } from '@/server/capabilities/audit/record-audit';
import { listMailForOperator } from '@/server/capabilities/mail/operator-mail-list';
import { cliContext, processOutput, type CliContext, type CliOutput } from './context';

class UsageError extends Error {}

const USAGE = `Usage: roomtone <command> [options] [--json]

  org create --name <name> [--tier <n>] [--credit <cents>]
  keys create --org <org_id> --mode test|live [--permissions ${PERMISSIONS.join(',')}] [--name <name>]
  keys revoke --key <key_id>
  keys list --org <org_id>
${BILLING_USAGE}
  user create --email <email> --password <password> --org <org_id> --role owner|admin|developer
  mail list [--to <email>] [--limit <n>]   the service's mail, newest first (sign-in links and
                               invitations included: without SMTP_URL this is where they go)
  worker                       run job workers only (scale-out)
  maintenance run [--now <ISO-8601>]   run retention jobs as of a time
  backup <file> [--without-secrets]   the database, blobs and secrets in one .tar.gz, while the
                               service runs (the file holds secrets: docs/operations.md)
  restore <file>               a backup into an empty DATA_DIR or database, and the storage
  webhooks create|list|get|rotate|disable|enable|delete|deliveries|resend|test   (roomtone webhooks for options)

Tiers: ${TIERS.map((t) => `${t.tier} ${t.name}`).join(', ')}`;

type Flags = Record<string, string | boolean | undefined>;

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required.`);
  return value;
}

function integer(flags: Flags, name: string, options: { min: number }): number | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^-?\d+$/.test(value) || Number(value) < options.min) {
    throw new UsageError(`--${name} must be an integer ≥ ${options.min}.`);
  }
  return Number(value);
}

function oneOf<T extends string>(flags: Flags, name: string, values: readonly T[]): T {
  const value = required(flags, name);
  if (!(values as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${values.join(', ')}.`);
  return value as T;
}

type Handler = (flags: Flags, database: () => Promise<ReturnType<typeof db>>) => Promise<{ json: unknown; text: string }>;

const commands: Record<string, { options: Record<string, { type: 'string' | 'boolean' }>; run: Handler }> = {
  'org create': {
    options: { name: { type: 'string' }, tier: { type: 'string' }, credit: { type: 'string' } },
    async run(flags, database) {
      const name = required(flags, 'name');
      const tier = integer(flags, 'tier', { min: 1 }) ?? 1;
      if (!isKnownTier(tier)) throw new UsageError(`--tier must be one of ${TIERS.map((t) => t.tier).join(', ')}.`);
      const credit = integer(flags, 'credit', { min: 0 }) ?? 0;
      const client = await database();
      const org = await transaction(async (tx) => {
        const created = await createOrganization(tx, { name, tier, creditCents: credit });
        await recordAudit(tx, OPERATOR, created.id, { action: 'organization.created', target: { type: 'organization', id: created.id }, details: { name: created.name, tier } });
        if (credit > 0) {
          await recordAudit(tx, OPERATOR, created.id, { action: 'balance.credit_granted', mode: 'live', details: { amount: credit, currency: 'eur', expires_at: null, balance_after: created.balanceCents } });
        }
        return created;
      }, undefined, client);
      return { json: { object: 'organization', ...org, balance_cents: org.balanceCents }, text: `Created ${org.id} (${org.name}, tier ${org.tier}, balance ${org.balanceCents} cents)` };
    },
  },
  'keys create': {
    options: { org: { type: 'string' }, mode: { type: 'string' }, permissions: { type: 'string' }, name: { type: 'string' } },
    async run(flags, database) {
      const organizationId = required(flags, 'org');
      const mode = oneOf(flags, 'mode', ['test', 'live'] as const);
      let permissions: z.infer<typeof permissionSchema>[] | undefined;
      if (flags.permissions !== undefined) {
        const list = String(flags.permissions).split(',').map((p) => p.trim()).filter(Boolean);
        const parsed = z.array(permissionSchema).min(1).safeParse(list);
        if (!parsed.success) throw new UsageError(`--permissions must be a comma-separated list of ${PERMISSIONS.join(', ')}.`);
        permissions = parsed.data;
      }
      const client = await database();
      const org = await client.organization.findUnique({ where: { id: organizationId } });
      if (!org) throw new DomainError('resource_not_found', `No organization ${organizationId}.`, { param: 'org' });
      const key = await transaction(async (tx) => {
        const created = await createApiKey(tx, { organizationId, mode, permissions, name: typeof flags.name === 'string' ? flags.name : undefined });
        await recordAudit(tx, OPERATOR, organizationId, {
          action: 'api_key.created',
          mode,
          target: { type: 'api_key', id: created.id },
          details: { name: created.name, prefix: created.prefix, permissions: created.permissions },
        });
        return created;
      }, undefined, client);
      return {
        json: { object: 'api_key', id: key.id, secret: key.secret, mode: key.mode, name: key.name, permissions: key.permissions, organization: key.organizationId },
        text: `Created ${key.id} (${key.mode}). Secret, shown once:\n${key.secret}`,
      };
    },
  },
  'keys revoke': {
    options: { key: { type: 'string' } },
    async run(flags, database) {
      const id = required(flags, 'key');
      const result = await transaction(async (tx) => {
        const before = await tx.apiKey.findUnique({ where: { id }, select: { organizationId: true, mode: true, name: true, prefix: true, revokedAt: true } });
        const revoked = await revokeApiKey(tx, id);
        if (before && before.revokedAt === null) {
          await recordAudit(tx, OPERATOR, before.organizationId, { action: 'api_key.revoked', mode: before.mode, target: { type: 'api_key', id }, details: { name: before.name, prefix: before.prefix } });
        }
        return revoked;
      }, undefined, await database());
      return { json: { object: 'api_key', id: result.id, revoked: true, revoked_at: Math.floor(result.revokedAt.getTime() / 1000) }, text: `Revoked ${id}` };
    },
  },
  'keys list': {
    options: { org: { type: 'string' } },
    async run(flags, database) {
      const organizationId = required(flags, 'org');
      const keys = await listApiKeys(await database(), organizationId);
      return {
        json: { object: 'list', data: keys.map((k) => ({ object: 'api_key', ...k })), has_more: false },
        text: keys.map((k) => `${k.id}  ${k.mode}  ${k.prefix}…  ${k.revoked_at ? 'revoked' : 'active'}  ${k.name}`).join('\n') || 'No keys.',
      };
    },
  },
  'user create': {
    options: { email: { type: 'string' }, password: { type: 'string' }, org: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' } },
    async run(flags, database) {
      const email = required(flags, 'email');
      if (!z.email().safeParse(email).success) throw new UsageError('--email must be an e-mail address.');
      const password = required(flags, 'password');
      if (password.length < PASSWORD_MIN_LENGTH) throw new UsageError(`--password must have at least ${PASSWORD_MIN_LENGTH} characters.`);
      const organizationId = required(flags, 'org');
      const role = oneOf(flags, 'role', ['owner', 'admin', 'developer'] as const);
      const client = await database();
      const user = await client.$transaction((tx) => createUser(tx, { email, password, organizationId, role, name: typeof flags.name === 'string' ? flags.name : undefined }));
      return { json: { object: 'user', ...user }, text: `User ${user.email} is ${user.role} of ${user.organization}` };
    },
  },
  'mail list': {
    options: { to: { type: 'string' }, limit: { type: 'string' } },
    async run(flags, database) {
      const limit = integer(flags, 'limit', { min: 1 }) ?? 20;
      const to = typeof flags.to === 'string' ? flags.to : undefined;
      const page = await listMailForOperator(await database(), { to, limit: Math.min(limit, 1000) });
      const text = page.data
        .map((m) => `── ${new Date(m.created_at * 1000).toISOString()}  ${m.kind}  to ${m.to}\n   ${m.subject}\n\n${m.text}\n`)
        .join('\n');
      return { json: { object: 'list', data: page.data.map((m) => ({ object: 'mail', ...m })), has_more: page.has_more }, text: text || 'No mail.' };
    },
  },
};

export interface RunOptions {
  /** Where the command writes (default: the process's stdout and stderr). */
  output?: CliOutput;
  /** Keep the runtime (database pool) open after the command, for the next one in this process. */
  keepRuntime?: boolean;
}

/** Runs one `roomtone` command (argv without the program name) and answers its exit code. */
export async function runCli(argv: string[], options: RunOptions = {}): Promise<number> {
  const json = argv.includes('--json');
  const args = argv.filter((a) => a !== '--json');
  const { context, close } = cliContext(json, options.output ?? processOutput, options.keepRuntime ?? false);
  try {
    return await runCommand(args, context);
  } finally {
    await close();
  }
}

async function runCommand(args: string[], context: CliContext): Promise<number> {
  const { json } = context;
  const emit = (doc: unknown, text: string, stream: 'out' | 'err' = 'out') => {
    if (json) context.out(JSON.stringify(doc));
    else if (stream === 'out') context.out(text);
    else context.err(text);
  };
  const database = async () => {
    await context.ready();
    return db();
  };
  try {
    if (args.length === 0 || args[0] === 'help' || args[0] === '--help') {
      emit({ usage: USAGE }, USAGE);
      return args.length === 0 ? 2 : 0;
    }
    const name = `${args[0]} ${args[1] ?? ''}`.trim();
    if (args[0] === 'worker') {
      const { runWorkerCommand } = await import('./worker');
      return runWorkerCommand(context);
    }
    if (args[0] === 'webhooks') return await (await import('./webhooks')).runWebhooksCommand(args.slice(1), context);
    if (name === 'maintenance run') {
      const { runMaintenanceCommand } = await import('./maintenance');
      return runMaintenanceCommand(args.slice(2), context);
    }
    if (args[0] === 'backup' || args[0] === 'restore') return await (await import('./backup')).runBackupCommand(args[0], args.slice(1), context);
    if (isBillingCommand(name)) return runBillingCommand(name, args.slice(2), context);
    const command = commands[name];
    if (!command) throw new UsageError(`Unknown command '${args.slice(0, 2).join(' ')}'.\n\n${USAGE}`);
    let flags: Flags;
    try {
      flags = parseArgs({ args: args.slice(2), options: command.options, strict: true, allowPositionals: false }).values as Flags;
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const result = await command.run(flags, database);
    emit(result.json, result.text);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      emit({ error: { code: 'usage', message: error.message } }, `roomtone: ${error.message}`, 'err');
      return 2;
    }
    if (error instanceof DomainError) {
      emit(error.toBody(), `roomtone: ${error.message}`, 'err');
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    emit({ error: { code: 'internal_error', message } }, `roomtone: ${message}`, 'err');
    return 1;
  }
}
