/**
 * `npm run bench [-- --only http,validation]`: benchmarks that print figures (not tests).
 * `--only soak` (long: SOAK_MINUTES, default 10) is not part of a plain run.
 * `npm run bench:check` (`--check`): the short version of the http, webhooks and admission
 * sections that CI runs: each figure against its same-run baseline and a floor set well under
 * the goal (a miss exits 1). Short runs unless the BENCH_* variables say otherwise.
 * Each section is a function in bench/sections/<name>.ts; add new ones to SECTIONS. The
 * markdown goes to stdout, progress to stderr, raw figures to bench/results/latest.json (and a
 * copy named by date and commit). A full run of a clean tree also rewrites the latest-run block
 * of docs/performance.md and the README's table at a glance, and a whole `--only soak` with the
 * soak's default settings the soak block (bench/publish.ts). Children and PostgreSQL are
 * stopped even on failure.
 *
 * Env: BENCH_DURATION (s per run, default 10), BENCH_CONNECTIONS (10), BENCH_WARMUP (2, per
 * scenario and target), BENCH_STARTUP_WARMUP (5, once per fresh server), BENCH_REPEATS (3),
 * BENCH_CPU_PROF=1 (CPU profile of the Roomtone server into bench/results/prof, and of the http
 * section's baseline into bench/results/prof-baseline), BENCH_HTTP_SCENARIOS
 * (A or B: one read scenario of the http section),
 * BENCH_SERVER_LOGS=1 (servers' output on stderr), BENCH_SERVER_NODE_FLAGS (extra node flags of the
 * Roomtone server, e.g. --trace-gc), BENCH_SLOW_LOG=1 (each paced request over 50 ms),
 * BENCH_READ_FLOOR (0.6: bench:check's read throughput floor; 0 reports it without gating),
 * SOAK_MINUTES (10), SOAK_LOAD_SHARE (0.5), SOAK_CREATIONS_PER_MINUTE (30) for the soak section.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Cleanup, ROOT, envNumber, fmt, log, startBenchDatabase, type BenchContext, type BenchDatabase, type GlanceRow, type Section } from './lib';
import { gitCommit, machine, publishFullRun, publishSoakRun, runHeader, soakUnpublishable, unpublishable, PERFORMANCE_DOC } from './publish';
import { httpSection } from './sections/http';
import { validationSection } from './sections/validation';
import { admissionSection } from './sections/admission';
import { engineSection } from './sections/engine';
import { rateLimitSection } from './sections/ratelimit';
import { schedulingSection } from './sections/scheduling';
import { mcpSection } from './sections/mcp';
import { webhooksSection } from './sections/webhooks';
import { backendSection } from './sections/backend';
import { requestLogSection } from './sections/request-log';
import { soakSection } from './sections/soak';

const SECTIONS: Record<string, Section> = {
  http: httpSection,
  validation: validationSection,
  admission: admissionSection,
  engine: engineSection,
  ratelimit: rateLimitSection,
  scheduling: schedulingSection,
  mcp: mcpSection,
  webhooks: webhooksSection,
  backend: backendSection,
  requestlog: requestLogSection,
  soak: soakSection,
};

/** Sections a plain run leaves out: they run only when named in --only. */
const ONLY_BY_NAME = new Set(['soak']);

function selectedSections(argv: string[]): string[] {
  const i = argv.findIndex((a) => a === '--only' || a.startsWith('--only='));
  if (i === -1) return Object.keys(SECTIONS).filter((name) => !ONLY_BY_NAME.has(name));
  const arg = argv[i] ?? '';
  const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : (argv[i + 1] ?? '');
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(n in SECTIONS));
  if (names.length === 0 || unknown.length > 0) {
    throw new Error(`--only takes a comma-separated list of: ${Object.keys(SECTIONS).join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`);
  }
  return names;
}

/**
 * bench:check's durations: seconds per scenario and one round per target, enough to tell a
 * regression from noise: a read check that fails is measured again for more rounds and judged
 * on all of them (sections/http.ts), so a round slowed by noise costs seconds, not a red CI.
 * About a minute in all on a quiet machine.
 */
const CHECK_SETTINGS = { BENCH_DURATION: 2, BENCH_WARMUP: 0.5, BENCH_REPEATS: 1, BENCH_STARTUP_WARMUP: 2 };

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  if (check) for (const [name, value] of Object.entries(CHECK_SETTINGS)) process.env[name] ??= String(value);
  const names = selectedSections(process.argv.slice(2).filter((a) => a !== '--check'));
  // `npm run bench | head` closes stdout early: that must not skip the cleanup.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  const cleanup = new Cleanup();
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping servers and PostgreSQL`);
    void cleanup.run().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let database: Promise<BenchDatabase> | null = null;
  const ctx: BenchContext = {
    settings: {
      durationSec: envNumber('BENCH_DURATION', 10),
      warmupSec: envNumber('BENCH_WARMUP', 2),
      connections: envNumber('BENCH_CONNECTIONS', 10),
      repeats: envNumber('BENCH_REPEATS', 3),
    },
    check,
    cleanup,
    database: () => (database ??= startBenchDatabase(cleanup)),
    log,
    nextSection: undefined,
    handedOver: null,
  };

  const outputs: Record<string, unknown> = {};
  const markdown: string[] = [];
  const glance: GlanceRow[] = [];
  const failures: string[] = [];
  try {
    for (const [i, name] of names.entries()) {
      const section = SECTIONS[name];
      if (!section) continue;
      log(`section ${name}`);
      const started = performance.now();
      const handedOver = ctx.handedOver;
      ctx.nextSection = names[i + 1];
      const out = await section(ctx);
      // A server handed to this section and left unused: its workers must not run during the next.
      if (handedOver && ctx.handedOver === handedOver) {
        ctx.handedOver = null;
        await handedOver.stop();
      }
      log(`section ${name} took ${fmt((performance.now() - started) / 1000, 1)} s`);
      outputs[name] = out.raw;
      markdown.push(out.markdown);
      glance.push(...(out.glance ?? []));
      failures.push(...out.failures.map((f) => `[${name}] ${f}`));
    }
  } finally {
    await cleanup.run();
  }

  const on = machine();
  const commit = gitCommit(ROOT);
  const only = process.argv.some((a) => a === '--only' || a.startsWith('--only='));
  const header = runHeader(check ? 'bench:check' : only ? `npm run bench -- --only ${names.join(',')}` : 'npm run bench', commit, on);
  process.stdout.write(`\n${header}\n\n${markdown.join('\n\n')}\n`);

  const resultsDir = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const at = new Date().toISOString();
  const raw = `${JSON.stringify({ at, commit, check, machine: on, settings: ctx.settings, sections: outputs, failures }, null, 2)}\n`;
  const file = path.join(resultsDir, 'latest.json');
  fs.writeFileSync(file, raw);
  fs.writeFileSync(path.join(resultsDir, `${at.replace(/[:.]/g, '-')}-${commit}${check ? '-check' : ''}.json`), raw);
  log(`raw figures: ${path.relative(ROOT, file)} (and a copy named by date and commit)`);

  // A run with the soak writes the soak's block or nothing; any other, the latest full run.
  const soak = names.includes('soak');
  const refused = soak
    ? soakUnpublishable({ failures: failures.length, check, sections: names, commit, env: process.env })
    : unpublishable({ failures: failures.length, check, allSections: !only, commit });
  if (refused === null && soak) {
    publishSoakRun(ROOT, { header, markdown });
    log(`published: ${PERFORMANCE_DOC}'s soak block (commit it)`);
  } else if (refused === null) {
    publishFullRun(ROOT, { header, markdown, glance });
    log(`published: ${PERFORMANCE_DOC}'s latest run and the README's table at a glance (commit them)`);
  } else if (!check) {
    log(`not published to ${PERFORMANCE_DOC}: ${refused}`);
  }

  if (failures.length > 0) {
    const bar = '!'.repeat(78);
    process.stderr.write(`\n${bar}\nBENCH RUN INVALID:\n${failures.map((f) => `  - ${f}`).join('\n')}\n${bar}\n`);
    process.stdout.write(`\n**BENCH RUN INVALID**: ${failures.length} problem(s), see stderr.\n`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
