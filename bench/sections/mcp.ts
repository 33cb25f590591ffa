/**
 * The MCP door against /v1 on the production server:
 *   A) get_generation with wait_seconds 0 over MCP (one JSON-RPC POST per call, as a stateless
 *      client sends it after initialize) vs GET /v1/generations/{id}: req/s and server CPU per
 *      request, same ids, same connections, alternating runs. Goal: MCP ≤ 2× /v1 CPU per call.
 *   B) end → answer: a get_generation waiting on an in-progress generation, which is then ended
 *      the way a worker ends it (UPDATE + pg_notify in one transaction); time from the commit to
 *      the answer. Goal: p50 ≤ 50 ms.
 */
import { db } from '@/server/platform/db';
import { resetConfigCache, setEnv } from '@/server/platform/config';
import { notifyGenerationDone } from '@/server/capabilities/generations/notify';
import { seedBenchData } from '../fixtures';
import { fmt, freePort, markdownTable, median, percentile, sleep, startRoomtoneServer, treeCpuMs, type BenchContext, type SectionOutput } from '../lib';

interface LoadRun {
  reqPerSec: number;
  cpuMsPerRequest: number;
  requests: number;
  failures: number;
}

/** `connections` closed loops for `seconds`; server CPU from /proc over the same window. */
async function closedLoop(serverPid: number | undefined, connections: number, seconds: number, send: (i: number) => Promise<boolean>): Promise<LoadRun> {
  const cpuBefore = treeCpuMs([serverPid])[0];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let requests = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: connections }, async (_, c) => {
      let i = c;
      while (performance.now() < deadline) {
        if (!(await send(i))) failures += 1;
        requests += 1;
        i += connections;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = treeCpuMs([serverPid])[0];
  const cpu = cpuBefore !== null && cpuBefore !== undefined && cpuAfter !== null && cpuAfter !== undefined ? (cpuAfter - cpuBefore) / requests : NaN;
  return { reqPerSec: requests / elapsed, cpuMsPerRequest: cpu, requests, failures };
}

export async function mcpSection(ctx: BenchContext): Promise<SectionOutput> {
  const database = await ctx.database();
  setEnv('DATABASE_URL', database.url);
  resetConfigCache();
  const fixtures = await seedBenchData({ generations: 400, otherOrgGenerations: 100 });
  const port = await freePort();
  const server = await startRoomtoneServer({ port, databaseUrl: database.url, env: { WORKERS_IN_PROCESS: 'false', WEB_PROCESSES: '1' } });
  ctx.cleanup.add('roomtone server (mcp)', () => server.stop());
  const auth = { authorization: `Bearer ${fixtures.testKey}` };
  const ids = fixtures.generationIds.filter((_, i) => i % 2 === 0);
  const failures: string[] = [];

  const v1 = async (i: number) => {
    const res = await fetch(`${server.url}/v1/generations/${ids[i % ids.length]}`, { headers: auth });
    await res.arrayBuffer();
    return res.status === 200;
  };
  const mcpCall = (name: string, args: Record<string, unknown>, id = 1) =>
    fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
    });
  const mcp = async (i: number) => {
    const res = await mcpCall('get_generation', { id: ids[i % ids.length], wait_seconds: 0 });
    const body = (await res.json()) as { result?: { isError?: boolean } };
    return res.status === 200 && body.result !== undefined && body.result.isError !== true;
  };

  const { connections, durationSec, repeats } = ctx.settings;
  ctx.log(`mcp: warm-up, then ${repeats} × (${durationSec} s /v1, ${durationSec} s MCP) at ${connections} connections`);
  await closedLoop(server.pid, connections, 3, v1);
  await closedLoop(server.pid, connections, 3, mcp);
  const runs: { v1: LoadRun[]; mcp: LoadRun[] } = { v1: [], mcp: [] };
  for (let r = 0; r < repeats; r++) {
    runs.v1.push(await closedLoop(server.pid, connections, durationSec, v1));
    runs.mcp.push(await closedLoop(server.pid, connections, durationSec, mcp));
  }
  for (const [door, list] of Object.entries(runs)) if (list.some((x) => x.failures > 0)) failures.push(`${door}: some calls failed`);
  const summary = (list: LoadRun[]) => ({ reqPerSec: median(list.map((x) => x.reqPerSec)), cpu: median(list.map((x) => x.cpuMsPerRequest)) });
  const a = { v1: summary(runs.v1), mcp: summary(runs.mcp) };

  // B) end → answer of a waiting get_generation.
  const n = Number(process.env.BENCH_MCP_WAKES ?? 30);
  const wakes: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = await db().generation.create({
      data: {
        id: `gen_benchwake${i}${Date.now()}`,
        organizationId: fixtures.organizationId,
        mode: 'test',
        type: 'upscale',
        status: 'in_progress',
        channel: 'mcp',
        input: { quality: null, scale: 'x2' },
        metadata: {},
        costAmount: 10,
        startedAt: new Date(),
      },
    });
    const answered = mcpCall('get_generation', { id: row.id, wait_seconds: 50 }).then(async (res) => {
      const body = (await res.json()) as { result?: { content: { text: string }[] } };
      const status = (JSON.parse(body.result?.content[0]?.text ?? '{}') as { status?: string }).status;
      if (status !== 'succeeded') failures.push(`waiting get_generation answered ${status}`);
      return performance.now();
    });
    await sleep(300); // the call is waiting by now
    let endedAt = 0;
    await db().$transaction(async (tx) => {
      const now = new Date();
      await tx.generation.update({ where: { id: row.id }, data: { status: 'succeeded', completedAt: now, expiresAt: new Date(now.getTime() + 86_400_000) } });
      await notifyGenerationDone(tx, row.id);
    });
    endedAt = performance.now();
    wakes.push((await answered) - endedAt);
  }
  await server.stop();

  const ratio = a.mcp.cpu / a.v1.cpu;
  const tableA = markdownTable(
    ['Call', 'req/s (median)', 'server CPU ms/request (median)'],
    [
      ['GET /v1/generations/{id}', fmt(a.v1.reqPerSec), fmt(a.v1.cpu, 2)],
      ['MCP tools/call get_generation, wait_seconds 0', fmt(a.mcp.reqPerSec), fmt(a.mcp.cpu, 2)],
      ['MCP ÷ /v1 (CPU per call; goal ≤ 2)', fmt(a.v1.reqPerSec > 0 ? a.mcp.reqPerSec / a.v1.reqPerSec : NaN, 2), fmt(ratio, 2)],
    ],
  );
  const tableB = markdownTable(
    ['Waiting get_generation', 'n', 'p50 ms', 'p99 ms', 'max ms'],
    [['generation end (commit of UPDATE + pg_notify) → answer', String(wakes.length), fmt(median(wakes), 1), fmt(percentile(wakes, 0.99), 1), fmt(Math.max(...wakes), 1)]],
  );
  return {
    markdown: [
      '### MCP endpoint vs /v1',
      '',
      `Production server (one web process, workers off), ${connections} connections, ${durationSec} s per run, median of ${repeats} alternating runs; server CPU from /proc (all its processes).`,
      '',
      tableA,
      '',
      tableB,
    ].join('\n'),
    raw: { runs, summary: a, cpuRatio: ratio, wakesMs: wakes },
    failures: [...new Set(failures)],
  };
}
