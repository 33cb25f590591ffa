/**
 * A local server that speaks Stripe's documented PaymentIntents endpoint (POST
 * /v1/payment_intents, form-encoded, Bearer secret key, Idempotency-Key replays the first
 * answer). The payment method decides the answer, as Stripe's test payment methods do:
 * `pm_card_visa` succeeds, `pm_card_chargeDeclined` is declined (402 card_error), `pm_timeout`
 * never answers.
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

export interface FakeStripe {
  url: string;
  requests: StripeRequest[];
  close(): Promise<void>;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: StripeRequest[] = [];
  const replies = new Map<string, { status: number; body: unknown }>();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, idempotencyKey, form });
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}` });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== '/v1/payment_intents') {
        send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url}).` } });
        return;
      }
      if (!req.headers.authorization?.startsWith('Bearer sk_test_')) {
        send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
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
      const id = `pi_${randomBytes(12).toString('hex')}`;
      const base = { id, object: 'payment_intent', amount: Number(form.amount), currency: form.currency, customer: form.customer, payment_method: form.payment_method };
      let reply: { status: number; body: unknown };
      if (form.payment_method === 'pm_card_chargeDeclined') {
        reply = {
          status: 402,
          body: {
            error: {
              type: 'card_error',
              code: 'card_declined',
              decline_code: 'generic_decline',
              message: 'Your card was declined.',
              payment_intent: { ...base, status: 'requires_payment_method' },
            },
          },
        };
      } else {
        reply = { status: 200, body: { ...base, status: 'succeeded' } };
      }
      if (idempotencyKey) replies.set(idempotencyKey, reply);
      send(reply.status, reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
