/**
 * One "instance" for the shared-counter test: its own process and database pool, counting
 * `HITS` hits of one subject against `LIMIT` through the real hitRateLimit (postgres store),
 * in waves of concurrent hits (so they batch). Prints the decisions as one JSON line.
 */
import { hitRateLimit } from '@/server/capabilities/limits/request-rate';
import { closeDb } from '@/server/platform/db';

const [key = '', limitText = '0', hitsText = '0'] = process.argv.slice(2);
const decisions = [];
for (let sent = 0; sent < Number(hitsText); sent += 25) {
  const wave = Math.min(25, Number(hitsText) - sent);
  decisions.push(...(await Promise.all(Array.from({ length: wave }, () => hitRateLimit('ip', key, Number(limitText))))));
}
process.stdout.write(`${JSON.stringify(decisions)}\n`);
await closeDb();
