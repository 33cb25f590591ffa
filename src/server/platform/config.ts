// Server code only: a client component that imports this fails the build.
import 'server-only';
import path from 'node:path';
import { z } from 'zod';

/**
 * Every environment variable the service reads, validated once. docs/configuration.md and the
 * README's configuration table mirror this schema; keep them together.
 */
const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const int = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) {
        ctx.addIssue({ code: 'custom', message: `expected a non-negative integer, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

const baseSchema = z.object({
  NODE_ENV: z.string().optional(),
  PORT: int(3000),
  HOST: z.string().optional().default('0.0.0.0'),
  /** External base URL, used in signed output URLs and console links. */
  PUBLIC_BASE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
  /** Use this PostgreSQL; unset = start the embedded one under DATA_DIR. */
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().optional().default('.data'),
  DATABASE_POOL_SIZE: int(20),
  /** How long a pooled connection (ours and pg-boss's) may stay idle before it is closed; 0 = never. */
  DATABASE_POOL_IDLE_MS: int(300_000),
  /** How long a query waits for a connection (new, or a pooled one to come free) before the request answers 503. */
  DATABASE_ACQUIRE_TIMEOUT_MS: int(5_000),
  /** How long a statement (lock waits included) may go unanswered before the request answers 503 (a stalled database); 0 = no bound. */
  DATABASE_STATEMENT_TIMEOUT_MS: int(10_000),
  /** Secret for signed file URLs, encrypted webhook secrets and sessions; generated under DATA_DIR if unset. */
  APP_SECRET: z.string().min(32).optional(),
  /** Web server processes of `npm start`; 0 = one per CPU core, at most 4. With more than one, the launcher's primary process runs the job workers and holds the rate-limit counters. */
  WEB_PROCESSES: int(0),
  /** Run pg-boss workers inside the web process (default) or only in `roomtone worker`. */
  WORKERS_IN_PROCESS: z.enum(['true', 'false']).optional().default('true').transform((v) => v === 'true'),
  WORKER_CONCURRENCY: int(2),
  SYNC_WAIT_MS: int(270_000),
  /** Queue depth beyond which live render/edit/decoration is refused with 503 overloaded. */
  QUEUE_MAX_DEPTH: int(200),
  BUILTIN_ENGINE_MIN_DURATION_MS: int(0),
  // Scheduling (docs/architecture.md, "Scheduling").
  /** Light generations (recolour, material, add, previews, Lanczos3 upscales) at once per worker process; WORKER_CONCURRENCY counts the heavy ones. */
  WORKER_LIGHT_CONCURRENCY: int(2),
  /** Generations at a generative backend (ENGINE_<OPERATION>) at once per worker process: they mostly wait on the network. */
  WORKER_REMOTE_CONCURRENCY: int(8),
  /** fair: light/heavy queues and weighted round-robin across organizations; fifo: one queue, oldest first (for comparisons). */
  JOB_SCHEDULING: z.enum(['fair', 'fifo']).optional().default('fair'),
  /** Heavy generations take at least this long (emulates a slow model in tests and benchmarks); 0: BUILTIN_ENGINE_MIN_DURATION_MS. */
  BUILTIN_ENGINE_HEAVY_MIN_DURATION_MS: int(0),
  /** Tests: a folder of per-organization holds (engine/emulated-timing.ts); unset: none. */
  BUILTIN_ENGINE_HOLDS_DIR: z.string().optional(),
  /** auto: the most faithful method within the time budget — Lanczos3 (see engine/builtin/upscale.ts); neural on request. */
  UPSCALE_METHOD: z.enum(['auto', 'lanczos3', 'neural']).optional().default('auto'),
  DEV_ALLOW_LOOPBACK_URLS: bool,
  STORAGE_DRIVER: z.enum(['local', 's3']).optional().default('local'),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional().default('us-east-1'),
  S3_ENDPOINT: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool,
  S3_TIMEOUT_MS: int(10_000),
  MODERATION_PROVIDER: z.enum(['builtin', 'openai']).optional().default('builtin'),
  MODERATION_URL: z.string().url().optional(),
  MODERATION_API_KEY: z.string().optional(),
  MODERATION_MODEL: z.string().optional(),
  /** All image URLs of a creation request download within this, counted from the request's arrival (spec: 30 s). */
  DOWNLOAD_DEADLINE_MS: int(30_000),
  /** Per client IP, counted before the key check (spec: 600). Raise only for load tests. */
  RATE_LIMIT_PER_IP_PER_MINUTE: int(600),
  /** `false`: no demo organization on first start. */
  SEED_DEMO: z.enum(['true', 'false']).optional().default('true'),
  /** `1`: `npm start` does not (re)build the web app even if sources are newer. */
  SKIP_BUILD: z.enum(['0', '1']).optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).optional().default('info'),
  /**
   * Proxy hops in front of the service whose X-Forwarded-For entries are believed, counted from
   * the right: `true` = 1, `false`/`0`/unset = none (the socket address is the client IP).
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const value = v?.trim().toLowerCase() ?? '';
      if (value === '' || value === 'false') return 0;
      if (value === 'true') return 1;
      if (!/^\d{1,2}$/.test(value)) {
        ctx.addIssue({ code: 'custom', message: `expected true, false or a number of proxy hops (0-99), got "${v}"` });
        return z.NEVER;
      }
      return Number(value);
    }),
  // --- Hardening and scale-out ---
  /** Where request-rate counters live: auto = postgres with an external DATABASE_URL, else memory. */
  RATE_LIMIT_STORE: z.enum(['auto', 'memory', 'postgres']).optional().default('auto'),
  /** A web process waits this long for the primary's counters, then counts the hit itself. */
  RATE_LIMIT_IPC_TIMEOUT_MS: int(1000),
  /** Bearer token for GET /metrics; unset = /metrics answers 404. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Set by the launcher: the database is the embedded one (this machine only). */
  ROOMTONE_EMBEDDED_DATABASE: bool,
  /** Set by the launcher in the web processes it forks: their rate counters are the primary's. */
  ROOMTONE_SHARED_RATE_LIMITS: bool,
  /** Worker threads of the built-in engine (default cores − 1) and where their sources are. */
  ROOMTONE_ENGINE_WORKERS: int(0),
  ROOMTONE_ENGINE_DIR: z.string().optional(),
  // Billing: credit lots and auto-recharge.
  /** Months after which an auto-recharge's unspent part expires; 0 = never. */
  RECHARGE_EXPIRY_MONTHS: int(12),
  /** Who takes auto-recharge payments: `manual` (none taken; development) or `stripe`. */
  PAYMENT_PROVIDER: z.enum(['manual', 'stripe']).optional().default('manual'),
  STRIPE_SECRET_KEY: z.string().optional(),
  /** Stripe API base URL (default https://api.stripe.com; tests point it at a local server). */
  STRIPE_API_BASE: z.string().url().optional(),
  STRIPE_TIMEOUT_MS: int(20_000),
  /** Signing secret of the Stripe webhook endpoint (whsec_…) that confirms credit purchases. */
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  // MCP endpoint
  /** How long an MCP creation tool waits for the end, image downloads included (spec: 50 s). */
  MCP_CREATION_WAIT_MS: int(50_000),
  // Webhooks and mail (src/server/capabilities/webhooks, src/server/capabilities/mail).
  /** Webhook deliveries sent at once by one worker process. */
  WEBHOOK_CONCURRENCY: int(64),
  /** At most this many deliveries in flight per endpoint and worker process (a slow receiver never holds the others). */
  WEBHOOK_ENDPOINT_CONCURRENCY: int(8),
  /** How often an idle worker looks for due deliveries (retries; new events wake it at once by NOTIFY). */
  WEBHOOK_POLL_MS: int(1000),
  /** smtp(s)://user:pass@host:port: send mail through this relay; unset = the server log and `roomtone mail list` (never the console). */
  SMTP_URL: z.string().url().optional(),
  /** Sender of the service's mail. */
  MAIL_FROM: z.string().optional().default('Roomtone <no-reply@roomtone.localhost>'),
  // Generative backends: which engine serves each operation, and their credentials. Formats
  // and cross-checks: src/server/capabilities/engine/backends/settings.ts (a check the composition root adds).
  ENGINE_RENDER: z.string().optional(),
  ENGINE_DECORATION: z.string().optional(),
  ENGINE_EDIT_PROMPT: z.string().optional(),
  ENGINE_UPSCALE: z.string().optional(),
  /** preview: test mode answers the deterministic preview (free for everyone); backend: test mode calls the backend too. */
  ENGINE_TEST_MODE: z.enum(['preview', 'backend']).optional().default('preview'),
  ENGINE_TIMEOUT_MS: int(240_000),
  ENGINE_RETRIES: int(2),
  ENGINE_TEMPLATE_DIR: z.string().optional(),
  REPLICATE_API_TOKEN: z.string().optional(),
  REPLICATE_BASE_URL: z.string().url().optional().default('https://api.replicate.com/v1'),
  REPLICATE_WAIT_SECONDS: int(60).refine((n) => n >= 1 && n <= 60, 'expected 1 to 60 (Replicate\'s Prefer: wait range)'),
  COMFYUI_URL: z.string().url().optional(),
  COMFYUI_API_KEY: z.string().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  // --- Console (Auth.js sessions, sign-up) ---
  /**
   * `false`: this instance serves no console: its pages, sign-in (/api/auth), its tRPC (/api/trpc)
   * and the API reference page answer 404, and Next.js is not loaded (an API-only instance).
   */
  CONSOLE_ENABLED: z.enum(['true', 'false']).optional().default('true').transform((v) => v === 'true'),
  /** Auth.js secret (CSRF tokens, e-mail link hashes); generated into DATA_DIR/auth-secret if unset. */
  AUTH_SECRET: z.string().min(32).optional(),
  /** Auth.js: trust the Host / X-Forwarded-Host header for its URLs. The launcher sets it (it serves one known host). */
  AUTH_TRUST_HOST: z.string().optional(),
  /** Anyone may create an account and organization in the console (`false`: by invitation or CLI only). */
  CONSOLE_OPEN_SIGNUP: z.enum(['true', 'false']).optional().default('true').transform((v) => v === 'true'),
  /** Console sessions last this many days without use (sliding). */
  CONSOLE_SESSION_DAYS: int(30),
  /** Sign-in attempts per minute per account and per client IP (brute-force protection). */
  SIGNIN_ATTEMPTS_PER_ACCOUNT_PER_MINUTE: int(5),
  SIGNIN_ATTEMPTS_PER_IP_PER_MINUTE: int(20),
  // --- Jobs provider (docs/jobs.md) ---
  /** pgboss: workers on the application's PostgreSQL (default); inngest: functions served at /api/inngest. */
  JOBS_PROVIDER: z.enum(['pgboss', 'inngest']).optional().default('pgboss'),
  /** Inngest event key (sending events); required with JOBS_PROVIDER=inngest. */
  INNGEST_EVENT_KEY: z.string().min(1).optional(),
  /** Inngest signing key (signkey-…): /api/inngest refuses requests not signed with it; required with JOBS_PROVIDER=inngest. */
  INNGEST_SIGNING_KEY: z.string().min(1).optional(),
  /** Inngest API and event base URL (self-hosted or the Dev Server, e.g. http://localhost:8288); unset = Inngest Cloud. */
  INNGEST_BASE_URL: z.string().url().optional(),
});

/** The variables as parsed, before the cross-checks. */
export type ParsedEnv = z.infer<typeof baseSchema>;

/**
 * A cross-check of settings that belong to a capability (the engine's backends): it reports
 * `[variable, message]` pairs, refused at start like the schema's own. Capabilities sit above
 * this module, so the composition root (src/server/main/config-checks.ts) adds their checks.
 */
export type ConfigCheck = (env: ParsedEnv) => Array<[string, string]>;
const checks = new Map<string, ConfigCheck>();

/** Run `check` with every configuration read from now on (by name: adding it twice is once). */
export function addConfigCheck(name: string, check: ConfigCheck): void {
  checks.set(name, check);
  cached = null;
}

const envSchema = baseSchema.superRefine((env, ctx) => {
  for (const check of checks.values()) {
    for (const [variable, message] of check(env)) ctx.addIssue({ code: 'custom', path: [variable], message });
  }
  if (env.JOBS_PROVIDER === 'inngest') {
    for (const variable of ['INNGEST_EVENT_KEY', 'INNGEST_SIGNING_KEY'] as const) {
      if (!env[variable]) ctx.addIssue({ code: 'custom', path: [variable], message: 'required with JOBS_PROVIDER=inngest' });
    }
  }
});

export type Config = z.infer<typeof envSchema> & { dataDir: string; publicBaseUrl: string; rateLimitStore: 'memory' | 'postgres' };

let cached: Config | null = null;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  return {
    ...c,
    dataDir: path.resolve(c.DATA_DIR),
    publicBaseUrl: (c.PUBLIC_BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    // Several instances can only share a database they did not each embed.
    rateLimitStore: c.RATE_LIMIT_STORE === 'auto' ? (c.DATABASE_URL && !c.ROOMTONE_EMBEDDED_DATABASE ? 'postgres' : 'memory') : c.RATE_LIMIT_STORE,
  };
}

/** The process-wide configuration (read once). */
export function config(): Config {
  cached ??= loadConfig();
  return cached;
}

/** Tests and the launcher change env before first use; this forgets the cached copy. */
export function resetConfigCache(): void {
  cached = null;
}

/**
 * Sets a variable for this process and the processes it starts (the launcher's generated
 * secrets, the embedded database's URL; tests' settings), and forgets the cached configuration
 * so `config()` reads it.
 */
export function setEnv(name: keyof z.infer<typeof envSchema>, value: string): void {
  process.env[String(name)] = value;
  cached = null;
}
