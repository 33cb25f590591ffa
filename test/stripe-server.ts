/**
 * A local server that speaks Stripe's documented PaymentIntents endpoints, form-encoded with a
 * Bearer secret key: create (POST /v1/payment_intents; Idempotency-Key replays the first
 * answer), retrieve (GET /v1/payment_intents/:id) and list (GET /v1/payment_intents with
 * customer, created[gte], limit, starting_after; newest first, `has_more`). The payment method
 * decides the answer, as Stripe's test payment methods do: `pm_card_visa` succeeds,
 * `pm_card_chargeDeclined` is declined (402 card_error), `pm_processing` stays `processing`
 * until the test settles it (`settle(id, status)`), `pm_timeout` never answers and creates
 * nothing, `pm_timeout_charged` takes the money (a succeeded PaymentIntent) but never answers.
 * `unavailable = true` makes every request fail with 500 api_error.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface StripeRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  form: Record<string, string>;
}

interface Intent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string | undefined;
  customer: string | undefined;
  payment_method: string | undefined;
  status: string;
  created: number;
  metadata: Record<string, string>;
  last_payment_error: { code: string; message: string } | null;
}

export interface FakeStripe {
  url: string;
  requests: StripeRequest[];
  intents: Map<string, Intent>;
  /** Every request answers 500 while true. */
  unavailable: boolean;
  /** Move a PaymentIntent (e.g. one `processing`) to its final status. */
  settle(id: string, status: 'succeeded' | 'requires_payment_method'): void;
  close(): Promise<void>;
}

function metadataOf(form: Record<string, string>): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(form)) {
    const key = /^metadata\[(.+)\]$/.exec(name)?.[1];
    if (key) metadata[key] = value;
  }
  return metadata;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: StripeRequest[] = [];
  const replies = new Map<string, { status: number; body: unknown }>();
  const intents = new Map<string, Intent>();
  const hanging = new Set<http.ServerResponse>();
  const fake: FakeStripe = {
    url: '',
    requests,
    intents,
    unavailable: false,
    settle(id, status) {
      const intent = intents.get(id);
      if (!intent) throw new Error(`no PaymentIntent ${id}`);
      intent.status = status;
      intent.last_payment_error = status === 'succeeded' ? null : { code: 'payment_failed', message: 'The bank refused the debit.' };
    },
    close: async () => undefined,
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stripe.local');
      const form = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : Buffer.concat(chunks).toString('utf8')));
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      requests.push({ method: req.method ?? '', path: url.pathname, authorization: req.headers.authorization, idempotencyKey, form });
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}` });
        res.end(JSON.stringify(body));
      };
      if (!req.headers.authorization?.startsWith('Bearer sk_test_')) {
        send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
        return;
      }
      if (fake.unavailable) {
        send(500, { error: { type: 'api_error', message: 'An unknown error occurred.' } });
        return;
      }
      const one = /^\/v1\/payment_intents\/(pi_[0-9a-f]+)$/.exec(url.pathname);
      if (req.method === 'GET' && one) {
        const intent = intents.get(one[1]!);
        if (intent) send(200, intent);
        else send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment_intent: '${one[1]}'` } });
        return;
      }
      if (req.method === 'GET' && url.pathname === '/v1/payment_intents') {
        const gte = Number(form['created[gte]'] ?? 0);
        const limit = Math.min(100, Number(form.limit ?? 10));
        // Newest first: insertion order, reversed.
        let all = [...intents.values()].filter((i) => (!form.customer || i.customer === form.customer) && i.created >= gte).reverse();
        if (form.starting_after) all = all.slice(all.findIndex((i) => i.id === form.starting_after) + 1);
        send(200, { object: 'list', url: '/v1/payment_intents', data: all.slice(0, limit), has_more: all.length > limit });
        return;
      }
      if (req.method !== 'POST' || url.pathname !== '/v1/payment_intents') {
        send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname}).` } });
        return;
      }
      const replay = idempotencyKey ? replies.get(idempotencyKey) : undefined;
      if (replay) {
        send(replay.status, replay.body);
        return;
      }
      if (form.payment_method === 'pm_timeout') {
        hanging.add(res);
        return;
      }
      const intent: Intent = {
        id: `pi_${randomBytes(12).toString('hex')}`,
        object: 'payment_intent',
        amount: Number(form.amount),
        currency: form.currency,
        customer: form.customer,
        payment_method: form.payment_method,
        status: 'succeeded',
        created: Math.floor(Date.now() / 1000),
        metadata: metadataOf(form),
        last_payment_error: null,
      };
      intents.set(intent.id, intent);
      let reply: { status: number; body: unknown };
      if (form.payment_method === 'pm_card_chargeDeclined') {
        intent.status = 'requires_payment_method';
        intent.last_payment_error = { code: 'card_declined', message: 'Your card was declined.' };
        reply = {
          status: 402,
          body: { error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.', payment_intent: intent } },
        };
      } else {
        if (form.payment_method === 'pm_processing') intent.status = 'processing';
        reply = { status: 200, body: intent };
      }
      // Stripe keeps the answer for the key even when it never reached the client.
      if (idempotencyKey) replies.set(idempotencyKey, reply);
      if (form.payment_method === 'pm_timeout_charged') {
        hanging.add(res);
        return;
      }
      send(reply.status, reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}
