import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startProcess } from './test/start-server';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-explore-'));
const server = await startProcess({ name: 'explore', port: 3200, processes: 1, env: { DATA_DIR: dataDir, DATABASE_URL: '', SKIP_BUILD: '1', LOG_LEVEL: 'warn' }, timeoutMs: 240_000 });
try {
  for (const enc of ['gzip', '']) {
    const r = await fetch(`${server.url}/docs/reference.js?v=1.72.1`, { headers: { 'accept-encoding': enc } });
    const t = await r.text();
    console.log(enc, r.status, [...r.headers.entries()].map(([k, v]) => `${k}: ${v.slice(0, 60)}`).join(' | '), t.length, JSON.stringify(t.slice(0, 200)));
  }
} finally {
  console.log(server.output().slice(-2000));
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
