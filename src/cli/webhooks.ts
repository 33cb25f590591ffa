/**
 * `roomtone webhooks <command>`: webhook endpoints from the command line (the console calls the
 * same services). Every command accepts --json and then prints exactly one JSON document.
 * Exit codes as the rest of the CLI: 0 done, 1 refused (error envelope, rendered by main.ts),
 * 2 bad arguments.
 */
import { parseArgs } from 'node:util';
import { db, type Db } from '@/server/platform/db';
import { createEndpoint } from '@/server/capabilities/webhooks/create-endpoint';
import { endpointScope, getEndpoint, listEndpoints, type ApiWebhookEndpoint } from '@/server/capabilities/webhooks/endpoints';
import { rotateSecret } from '@/server/capabilities/webhooks/rotate-secret';
import { deleteEndpoint, disableEndpoint, enableEndpoint } from '@/server/capabilities/webhooks/endpoint-status';
import { deliveryScope, listDeliveries, type ApiWebhookDelivery } from '@/server/capabilities/webhooks/delivery-log';
import { resendDelivery } from '@/server/capabilities/webhooks/resend-delivery';
import { sendTestEvent } from '@/server/capabilities/webhooks/send-test-event';
import type { CliContext } from './context';

export const WEBHOOKS_USAGE = `Usage: roomtone webhooks <command> [options] [--json]

  create --org <org_id> --mode test|live --url <https url> [--events t1,t2] [--description <text>]
  list --org <org_id>
  get|rotate|disable|enable|delete --endpoint <endpoint_id>
  deliveries --endpoint <endpoint_id> [--limit <n>]
  resend --delivery <delivery_id>
  test --endpoint <endpoint_id> --type <event type>`;

class UsageError extends Error {}

type Flags = Record<string, string | undefined>;
type Result = { json: unknown; text: string };

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required.`);
  return value;
}

const endpointLine = (e: ApiWebhookEndpoint) => `${e.id}  ${e.mode}  ${e.status}${e.disabled_reason ? ` (${e.disabled_reason})` : ''}  ${e.url}  [${e.enabled_events.join(', ')}]`;
const deliveryLine = (d: ApiWebhookDelivery) =>
  `${d.id}  ${d.event.type}  ${d.event.id}  ${d.kind}  ${d.status}  attempts ${d.attempts}${d.last_status_code !== null ? `  HTTP ${d.last_status_code}` : ''}${d.last_error ? `  ${d.last_error}` : ''}`;

const byEndpoint = (run: (client: Db, scope: { organizationId: string }, id: string) => Promise<ApiWebhookEndpoint | { id: string; deleted: true }>, verb: string) => ({
  options: ['endpoint'],
  async run(flags: Flags, client: Db): Promise<Result> {
    const id = required(flags, 'endpoint');
    const result = await run(client, await endpointScope(client, id), id);
    return { json: 'deleted' in result ? { object: 'webhook_endpoint', ...result } : result, text: 'deleted' in result ? `Deleted ${id}` : `${verb}: ${endpointLine(result)}` };
  },
});

const COMMANDS: Record<string, { options: string[]; run(flags: Flags, client: Db): Promise<Result> }> = {
  create: {
    options: ['org', 'mode', 'url', 'events', 'description'],
    async run(flags, client) {
      const organizationId = required(flags, 'org');
      const events = flags.events?.split(',').map((t) => t.trim()).filter(Boolean);
      const { endpoint, secret } = await createEndpoint(client, { organizationId }, {
        mode: required(flags, 'mode'),
        url: required(flags, 'url'),
        ...(events !== undefined ? { events } : {}),
        ...(flags.description !== undefined ? { description: flags.description } : {}),
      });
      return { json: { ...endpoint, secret }, text: `Created ${endpointLine(endpoint)}\nSigning secret, shown once:\n${secret}` };
    },
  },
  list: {
    options: ['org'],
    async run(flags, client) {
      const data = await listEndpoints(client, { organizationId: required(flags, 'org') });
      return { json: { object: 'list', data, has_more: false }, text: data.map(endpointLine).join('\n') || 'No endpoints.' };
    },
  },
  get: byEndpoint(getEndpoint, 'Endpoint'),
  disable: byEndpoint(disableEndpoint, 'Disabled'),
  enable: byEndpoint(enableEndpoint, 'Enabled'),
  delete: byEndpoint(deleteEndpoint, 'Deleted'),
  rotate: {
    options: ['endpoint'],
    async run(flags, client) {
      const id = required(flags, 'endpoint');
      const { endpoint, secret } = await rotateSecret(client, await endpointScope(client, id), id);
      return { json: { ...endpoint, secret }, text: `Rotated ${id}; both secrets sign for 24 hours. New secret, shown once:\n${secret}` };
    },
  },
  deliveries: {
    options: ['endpoint', 'limit'],
    async run(flags, client) {
      const id = required(flags, 'endpoint');
      const limit = flags.limit === undefined ? undefined : Number(flags.limit);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 1000)) throw new UsageError('--limit must be an integer from 1 to 1000.');
      const data = await listDeliveries(client, await endpointScope(client, id), id, limit !== undefined ? { limit } : {});
      return { json: { object: 'list', data, has_more: false }, text: data.map(deliveryLine).join('\n') || 'No deliveries.' };
    },
  },
  resend: {
    options: ['delivery'],
    async run(flags, client) {
      const id = required(flags, 'delivery');
      const delivery = await resendDelivery(client, await deliveryScope(client, id), id);
      return { json: delivery, text: `Resent: ${deliveryLine(delivery)}` };
    },
  },
  test: {
    options: ['endpoint', 'type'],
    async run(flags, client) {
      const id = required(flags, 'endpoint');
      const delivery = await sendTestEvent(client, await endpointScope(client, id), id, required(flags, 'type'));
      return { json: delivery, text: `Test event sent: ${deliveryLine(delivery)}` };
    },
  },
};

/** Usage errors exit 2 here; refusals and failures propagate to main.ts, which renders them (exit 1). */
export async function runWebhooksCommand(args: string[], context: CliContext): Promise<number> {
  try {
    const command = COMMANDS[args[0] ?? ''];
    if (!command) throw new UsageError(args[0] ? `Unknown command 'webhooks ${args[0]}'.\n\n${WEBHOOKS_USAGE}` : WEBHOOKS_USAGE);
    let flags: Flags;
    try {
      const options = Object.fromEntries(command.options.map((o) => [o, { type: 'string' as const }]));
      flags = parseArgs({ args: args.slice(1), options, strict: true, allowPositionals: false }).values as Flags;
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    await context.ready();
    const result = await command.run(flags, db());
    context.out(context.json ? JSON.stringify(result.json) : result.text);
    return 0;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (context.json) context.out(JSON.stringify({ error: { code: 'usage', message: error.message } }));
    else context.err(`roomtone: ${error.message}`);
    return 2;
  }
}
