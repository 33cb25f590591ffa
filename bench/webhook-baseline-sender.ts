/**
 * Baseline for the webhook section: the least a sender must do, with no database. One process
 * POSTs `count` signed event bodies (the same signing as the worker's) over keep-alive HTTPS to
 * the bench's receiver, `concurrency` at a time, across `endpoints` paths, and prints the
 * deliveries per second as one JSON line. What Roomtone adds is its claim, record and
 * health-check round trips and the SSRF checks of each request.
 *
 * Args: <base url> <count> <concurrency> <endpoints>; NODE_EXTRA_CA_CERTS trusts the receiver.
 */
import https from 'node:https';
import { signatureHeader } from '@/server/capabilities/webhooks/sign';

const [base = 'https://127.0.0.1', countText = '1000', concurrencyText = '64', endpointsText = '8'] = process.argv.slice(2);
const count = Number(countText);
const concurrency = Number(concurrencyText);
const endpoints = Number(endpointsText);
const agent = new https.Agent({ keepAlive: true, maxSockets: concurrency });
const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;

function send(i: number): Promise<void> {
  const id = `evt_baseline_${process.pid}_${i}`;
  const timestamp = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({ id, object: 'event', type: 'balance.low', created_at: timestamp, data: { object: { object: 'balance', amount: 420, currency: 'eur', unit: 'cents', low_balance_threshold: 500 } } });
  return new Promise((resolve, reject) => {
    const req = https.request(`${base}/hook/${i % endpoints}`, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatureHeader([secret], id, timestamp, body) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => (res.statusCode && res.statusCode < 300 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `n` sends, `concurrency` at a time; seconds taken. */
async function run(n: number, first: number): Promise<number> {
  let next = first;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < first + n) await send(next++);
    }),
  );
  return (performance.now() - started) / 1000;
}

// Warm-up, as the worker's: the connections' TLS handshakes, the JIT.
await run(Math.min(count, 4 * concurrency), 0);
const seconds = await run(count, count);
process.stdout.write(`${JSON.stringify({ perSecond: count / seconds })}\n`);
agent.destroy();
