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
 *
 * Checkout, as Stripe documents it: create (POST /v1/checkout/sessions, mode `payment`, one
 * `price_data` line item; Idempotency-Key replays), retrieve (GET /v1/checkout/sessions/:id,
 * `expand[]=payment_intent.latest_charge`), and the hosted payment page at the session's `url`
 * (GET shows it; its Pay button POSTs, creates the succeeded PaymentIntent on `pm_card_visa`, a
 * customer when `customer_creation=always`, a charge with a `receipt_url`, sends the signed
 * `checkout.session.completed` event to the configured webhook endpoint and redirects to
 * `success_url`). Mode `setup` (a `customer`, `currency`, no line items) shows a page that saves a
 * card: its Save button creates a succeeded SetupIntent whose payment method follows the test
 * card number entered (4242… `pm_card_visa`, 5555 5555 5555 4444 `pm_card_mastercard`),
 * completes the session (retrieve with `expand[]=setup_intent`), sends the same event and
 * redirects to `success_url` with `{CHECKOUT_SESSION_ID}` replaced. Events are signed as Stripe signs them: `Stripe-Signature: t=<unix>,v1=<hex
 * HMAC-SHA256 of "t.body" keyed with the endpoint secret>`. `pay(id)` does what the page's
 * button does (for tests without a browser); `deliverWebhooks = false` loses the events
 * (kept in `events`, `redeliver` sends one again); `expire(id)` ends an open session.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, randomBytes } from 'node:crypto';

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

interface SetupIntent {
  id: string;
  object: 'setup_intent';
  customer: string | null;
  payment_method: string;
  status: 'succeeded';
  usage: 'off_session';
  metadata: Record<string, string>;
}

/** Test card numbers as Stripe's test payment methods (the hosted page's card field). */
const TEST_CARDS: Record<string, string> = { '4242424242424242': 'pm_card_visa', '5555555555554444': 'pm_card_mastercard' };

interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  url: string | null;
  success_url: string;
  cancel_url: string;
  client_reference_id: string | null;
  customer: string | null;
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  payment_intent: string | null;
  setup_intent: string | null;
  /** Not Stripe's: what the session was created with, kept for paying it. */
  _customerCreation: boolean;
  _intentMetadata: Record<string, string>;
}

export interface StripeEvent {
  id: string;
  body: string;
}

export interface FakeStripe {
  url: string;
  sessions: Map<string, CheckoutSession>;
  /** Every event Stripe sent (or would have sent), oldest first. */
  events: StripeEvent[];
  /** Events go to the webhook endpoint while true; false: they are lost (still kept in `events`). */
  deliverWebhooks: boolean;
  /** The buyer pays a session (what the hosted page's Pay button does; a setup session saves the card number given); resolves once the event was delivered (or lost). */
  pay(sessionId: string, cardNumber?: string): Promise<{ event: StripeEvent; delivered: number | null }>;
  /** Send an event again (Stripe retries and may deliver twice): the endpoint's HTTP status. */
  redeliver(event: StripeEvent): Promise<number>;
  /** Sign `body` as Stripe would, with the endpoint secret (or another one). */
  sign(body: string, secret?: string): string;
  expire(sessionId: string): void;
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

const CHECKOUT_PAGE = '/c/pay/';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `webhook`: the endpoint (URL and signing secret) that Stripe's dashboard would hold. */
export async function startFakeStripe(options: { webhook?: { url: string; secret: string } } = {}): Promise<FakeStripe> {
  const requests: StripeRequest[] = [];
  const replies = new Map<string, { status: number; body: unknown }>();
  const intents = new Map<string, Intent>();
  const sessions = new Map<string, CheckoutSession>();
  const setupIntents = new Map<string, SetupIntent>();
  const charges = new Map<string, { id: string; object: 'charge'; amount: number; receipt_url: string; payment_intent: string }>();
  const events: StripeEvent[] = [];
  const sign = (body: string, secret = options.webhook?.secret ?? '') => {
    const t = Math.floor(Date.now() / 1000);
    return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
  };
  const deliver = async (event: StripeEvent): Promise<number> => {
    if (!options.webhook) throw new Error('no webhook endpoint configured');
    const res = await fetch(options.webhook.url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': sign(event.body) }, body: event.body });
    await res.arrayBuffer();
    return res.status;
  };
  const publicSession = (session: CheckoutSession, expand: boolean) => {
    const { _customerCreation, _intentMetadata, ...rest } = session;
    void _customerCreation;
    void _intentMetadata;
    if (expand && session.setup_intent) return { ...rest, setup_intent: setupIntents.get(session.setup_intent) };
    if (!expand || !session.payment_intent) return rest;
    const intent = intents.get(session.payment_intent)!;
    const charge = [...charges.values()].find((c) => c.payment_intent === intent.id) ?? null;
    return { ...rest, payment_intent: { ...intent, latest_charge: charge } };
  };
  const completed = async (session: CheckoutSession): Promise<{ event: StripeEvent; delivered: number | null }> => {
    const event: StripeEvent = { id: `evt_${randomBytes(12).toString('hex')}`, body: '' };
    event.body = JSON.stringify({ id: event.id, object: 'event', api_version: '2025-01-27', created: Math.floor(Date.now() / 1000), livemode: false, type: 'checkout.session.completed', data: { object: publicSession(session, false) } });
    events.push(event);
    const delivered = fake.deliverWebhooks && options.webhook ? await deliver(event).catch(() => null) : null;
    return { event, delivered };
  };
  /** A setup-mode session's page submitted: the card is saved on the session's customer. */
  const saveCard = async (session: CheckoutSession, cardNumber: string): Promise<{ event: StripeEvent; delivered: number | null }> => {
    const paymentMethod = TEST_CARDS[cardNumber.replace(/\s/g, '')];
    if (!paymentMethod) throw new Error(`not a test card: ${cardNumber}`);
    const intent: SetupIntent = { id: `seti_${randomBytes(12).toString('hex')}`, object: 'setup_intent', customer: session.customer, payment_method: paymentMethod, status: 'succeeded', usage: 'off_session', metadata: session._intentMetadata };
    setupIntents.set(intent.id, intent);
    Object.assign(session, { status: 'complete', setup_intent: intent.id, url: null });
    return completed(session);
  };
  const paySession = async (id: string, cardNumber = '4242 4242 4242 4242'): Promise<{ event: StripeEvent; delivered: number | null }> => {
    const session = sessions.get(id);
    if (!session) throw new Error(`no checkout session ${id}`);
    if (session.status !== 'open') throw new Error(`checkout session ${id} is ${session.status}`);
    if (session.mode === 'setup') return saveCard(session, cardNumber);
    const customer = session.customer ?? (session._customerCreation ? `cus_${randomBytes(8).toString('hex')}` : null);
    const intent: Intent = {
      id: `pi_${randomBytes(12).toString('hex')}`,
      object: 'payment_intent',
      amount: session.amount_total,
      currency: session.currency,
      customer: customer ?? undefined,
      payment_method: 'pm_card_visa',
      status: 'succeeded',
      created: Math.floor(Date.now() / 1000),
      metadata: session._intentMetadata,
      last_payment_error: null,
    };
    intents.set(intent.id, intent);
    const charge = `ch_${randomBytes(12).toString('hex')}`;
    charges.set(charge, { id: charge, object: 'charge', amount: intent.amount, receipt_url: `${fake.url}/receipts/${charge}`, payment_intent: intent.id });
    Object.assign(session, { status: 'complete', payment_status: 'paid', customer, payment_intent: intent.id, url: null });
    return completed(session);
  };
  const hanging = new Set<http.ServerResponse>();
  const fake: FakeStripe = {
    url: '',
    requests,
    intents,
    sessions,
    events,
    deliverWebhooks: true,
    pay: paySession,
    redeliver: deliver,
    sign,
    expire(id) {
      const session = sessions.get(id);
      if (!session) throw new Error(`no checkout session ${id}`);
      Object.assign(session, { status: 'expired', url: null });
    },
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
      if (url.pathname.startsWith(CHECKOUT_PAGE) || url.pathname.startsWith('/receipts/')) {
        servePage(req, res, url, form);
        return;
      }
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
      const checkout = /^\/v1\/checkout\/sessions(?:\/(cs_test_[0-9a-f]+))?$/.exec(url.pathname);
      if (checkout) {
        serveCheckoutApi(req.method ?? '', checkout[1], form, idempotencyKey, send);
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
  function serveCheckoutApi(method: string, id: string | undefined, form: Record<string, string>, idempotencyKey: string | undefined, send: (status: number, body: unknown) => void) {
    if (method === 'GET' && id) {
      const session = sessions.get(id);
      if (!session) send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such checkout.session: '${id}'` } });
      else send(200, publicSession(session, Object.entries(form).some(([k, v]) => k.startsWith('expand') && (v === 'payment_intent.latest_charge' || v === 'setup_intent'))));
      return;
    }
    if (method !== 'POST' || id) {
      send(404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL.' } });
      return;
    }
    const replay = idempotencyKey ? replies.get(idempotencyKey) : undefined;
    if (replay) {
      send(replay.status, replay.body);
      return;
    }
    const setup = form.mode === 'setup';
    const amount = setup ? 0 : Number(form['line_items[0][price_data][unit_amount]']);
    const quantity = setup ? 1 : Number(form['line_items[0][quantity]'] ?? 1);
    for (const field of ['success_url', 'cancel_url', 'mode', ...(setup ? ['currency'] : [])]) {
      if (!form[field]) {
        send(400, { error: { type: 'invalid_request_error', code: 'parameter_missing', param: field, message: `Missing required param: ${field}.` } });
        return;
      }
    }
    if (setup && form.customer_creation) {
      send(400, { error: { type: 'invalid_request_error', param: 'customer_creation', message: '`customer_creation` can only be used in `payment` mode.' } });
      return;
    }
    if (!setup && (!Number.isInteger(amount) || amount < 50)) {
      send(400, { error: { type: 'invalid_request_error', code: 'amount_too_small', param: 'line_items[0][price_data][unit_amount]', message: 'Amount must be at least €0.50 eur.' } });
      return;
    }
    const intentMetadata: Record<string, string> = {};
    for (const [name, value] of Object.entries(form)) {
      const key = /^(?:payment_intent_data|setup_intent_data)\[metadata\]\[(.+)\]$/.exec(name)?.[1];
      if (key) intentMetadata[key] = value;
    }
    const sessionId = `cs_test_${randomBytes(16).toString('hex')}`;
    const session: CheckoutSession = {
      id: sessionId,
      object: 'checkout.session',
      mode: form.mode!,
      status: 'open',
      payment_status: 'unpaid',
      url: `${fake.url}${CHECKOUT_PAGE}${sessionId}`,
      success_url: form.success_url!,
      cancel_url: form.cancel_url!,
      client_reference_id: form.client_reference_id ?? null,
      customer: form.customer ?? null,
      amount_total: amount * quantity,
      currency: (setup ? form.currency : form['line_items[0][price_data][currency]']) ?? 'eur',
      metadata: metadataOf(form),
      payment_intent: null,
      setup_intent: null,
      _customerCreation: form.customer_creation === 'always',
      _intentMetadata: intentMetadata,
    };
    sessions.set(sessionId, session);
    const reply = { status: 200, body: publicSession(session, false) };
    if (idempotencyKey) replies.set(idempotencyKey, reply);
    send(reply.status, reply.body);
  }

  /** Stripe's hosted pages: the payment page of a session, and a charge's receipt. */
  function servePage(req: http.IncomingMessage, res: http.ServerResponse, url: URL, form: Record<string, string>) {
    const html = (status: number, title: string, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head><body><main>${body}</main></body></html>`);
    };
    if (url.pathname.startsWith('/receipts/')) {
      const charge = charges.get(url.pathname.slice('/receipts/'.length));
      if (!charge) html(404, 'Not found', '<h1>No such receipt</h1>');
      else html(200, 'Receipt', `<h1>Receipt from Roomtone</h1><p>Amount paid €${(charge.amount / 100).toFixed(2)}</p><p>${charge.id}</p>`);
      return;
    }
    const session = sessions.get(url.pathname.slice(CHECKOUT_PAGE.length));
    if (!session || session.status !== 'open') {
      html(404, 'Checkout', '<h1>This checkout session is no longer available</h1>');
      return;
    }
    const price = `€${(session.amount_total / 100).toFixed(2)}`;
    if (req.method === 'POST') {
      void paySession(session.id, form.card).then(
        () => {
          res.writeHead(303, { location: session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id) });
          res.end();
        },
        (error: unknown) => html(500, 'Checkout', `<h1>Payment failed</h1><p>${escapeHtml(String(error))}</p>`),
      );
      return;
    }
    if (session.mode === 'setup') {
      html(
        200,
        'Checkout',
        `<h1>Save a card for Roomtone</h1><p>Roomtone will charge this card for future payments (auto-recharge).</p>
        <form method="post"><label for="card">Card number</label> <input id="card" name="card" value="" autocomplete="cc-number">
        <button type="submit">Save card</button></form>
        <p><a href="${escapeHtml(session.cancel_url)}">Back to Roomtone</a></p>`,
      );
      return;
    }
    html(
      200,
      'Checkout',
      `<h1>Pay Roomtone</h1><p>Roomtone credit ${price}</p>
      <form method="post"><label for="card">Card number</label> <input id="card" name="card" value="4242 4242 4242 4242" autocomplete="cc-number">
      <button type="submit">Pay ${price}</button></form>
      <p><a href="${escapeHtml(session.cancel_url)}">Back to Roomtone</a></p>`,
    );
  }

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
