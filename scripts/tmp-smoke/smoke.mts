import { startEmbeddedPostgres, embeddedDatabaseState } from '/work/wt/faults/src/server/platform/embedded-postgres';
import fs from 'node:fs';
const dir = '/work/wt/faults/.data/smoke-' + process.pid;
const t0 = Date.now();
const db = await startEmbeddedPostgres(dir, { fast: true });
console.log('started', Date.now() - t0, db.url, embeddedDatabaseState());
const pid = Number(fs.readFileSync(JSON.parse(fs.readFileSync(dir + '/postgres.json','utf8')).clusterDir + '/postmaster.pid','utf8').split('\n')[0]);
process.kill(pid, 'SIGKILL');
for (let i = 0; i < 20; i++) { await new Promise(r => setTimeout(r, 500)); const s = embeddedDatabaseState(); if (s?.restarts) { console.log('after', i, s); break; } }
const t1 = Date.now(); await db.stop(); console.log('stopped', Date.now() - t1);
fs.rmSync(dir, { recursive: true, force: true });
