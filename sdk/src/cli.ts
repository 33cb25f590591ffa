#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { Roomtone } from './client.js';
import { RoomtoneError } from './core/errors.js';
import { listenAndForward } from './listen.js';
import type { TestEventType, WebhookEventType } from './types.js';
import { VERSION } from './version.js';

const TEST_EVENT_TYPES: readonly TestEventType[] = ['generation.succeeded', 'generation.failed', 'generation.canceled'];

const USAGE = `Usage: npx @roomtone/sdk listen [--forward-to <url>] [--events <type,type>] [options]
       npx @roomtone/sdk trigger <event> [options]

listen   Streams your organization's test-mode events and POSTs each one to --forward-to, signed
         (Standard Webhooks) with a session secret printed at start; without --forward-to, prints them.
trigger  Sends a sample test-mode event (${TEST_EVENT_TYPES.join(', ')}), as
         \`stripe trigger\` does: signed, to every active test endpoint that follows the type and
         to every running listen.

Options:
  --forward-to <url>   Local receiver, e.g. http://localhost:4000/hooks
  --events <list>      Comma-separated types (default: all test-mode types), e.g.
                       generation.succeeded,generation.failed
  --secret <whsec_…>   Sign with this secret instead of a new one (keep your receiver's config)
  --api-key <key>      A test key (default: ROOMTONE_API_KEY)
  --base-url <url>     The service (default: ROOMTONE_BASE_URL, else http://localhost:3000)
  -h, --help           This help
  -v, --version        The SDK version`;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'forward-to': { type: 'string' },
        events: { type: 'string' },
        secret: { type: 'string' },
        'api-key': { type: 'string' },
        'base-url': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    console.log(VERSION);
    return 0;
  }
  const command = positionals[0];
  const valid = (command === 'listen' && positionals.length === 1) || (command === 'trigger' && positionals.length === 2);
  if (values.help || !valid) {
    (values.help ? console.log : console.error)(USAGE);
    return values.help ? 0 : 2;
  }
  const apiKey = values['api-key'] ?? process.env.ROOMTONE_API_KEY;
  if (apiKey?.startsWith('rt_live_')) {
    console.error(`${command} uses a test key (rt_test_…): test-mode events only. Live events go to your webhook endpoints.`);
    return 2;
  }
  if (command === 'trigger') return trigger(positionals[1]!, apiKey, values['base-url']);
  if (values['forward-to'] !== undefined) {
    try {
      const url = new URL(values['forward-to']);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    } catch {
      console.error(`--forward-to must be an http(s) URL, e.g. http://localhost:4000/hooks (got '${values['forward-to']}').`);
      return 2;
    }
  }
  if (values.secret !== undefined && !/^whsec_[A-Za-z0-9+/=]+$/.test(values.secret)) {
    console.error('--secret must look like whsec_ followed by base64.');
    return 2;
  }
  const controller = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort());
  try {
    const client = new Roomtone({ ...(apiKey ? { apiKey } : {}), ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}) });
    await listenAndForward({
      client,
      ...(values['forward-to'] ? { forwardTo: values['forward-to'] } : {}),
      ...(values.events ? { events: values.events.split(',').map((t) => t.trim()).filter(Boolean) as WebhookEventType[] } : {}),
      ...(values.secret ? { secret: values.secret } : {}),
      signal: controller.signal,
    });
    return 0;
  } catch (error) {
    return reportFailure(error);
  }
}

/** A refusal or connection error as one line on stderr (exit code 1); anything else is a bug and throws. */
function reportFailure(error: unknown): number {
  if (!(error instanceof RoomtoneError)) throw error;
  const code = (error as { code?: string }).code;
  console.error(code ? `${code}: ${error.message}` : error.message);
  return 1;
}

async function trigger(type: string, apiKey: string | undefined, baseUrl: string | undefined): Promise<number> {
  if (!(TEST_EVENT_TYPES as readonly string[]).includes(type)) {
    console.error(`Unknown event '${type}': one of ${TEST_EVENT_TYPES.join(', ')}.`);
    return 2;
  }
  try {
    const client = new Roomtone({ ...(apiKey ? { apiKey } : {}), ...(baseUrl ? { baseUrl } : {}) });
    const triggered = await client.webhooks.trigger(type as TestEventType);
    if (triggered.event_id === null) {
      console.log(`Nothing follows ${type} in test mode: no active test endpoint follows it and no listen is running. Nothing was sent.`);
      return 0;
    }
    const to = [`${triggered.endpoints} test endpoint${triggered.endpoints === 1 ? '' : 's'}`, ...(triggered.event_stream ? ['the running listen'] : [])].join(' and ');
    console.log(`Triggered ${type} (${triggered.event_id}): sent to ${to}.`);
    return 0;
  } catch (error) {
    return reportFailure(error);
  }
}

process.exitCode = await main(process.argv.slice(2));
