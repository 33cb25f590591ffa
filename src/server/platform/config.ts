import path from 'node:path';
import { z } from 'zod';

/**
 * Every environment variable the service reads, validated once. The README's configuration
 * table mirrors this schema; keep them together.
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

const envSchema = z.object({
  NODE_ENV: z.string().optional(),
  PORT: int(3000),
  HOST: z.string().optional().default('0.0.0.0'),
  /** External base URL, used in signed output URLs and console links. */
  PUBLIC_BASE_URL: z.string().url().optional(),
  /** Use this PostgreSQL; unset = start the embedded one under DATA_DIR. */
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().optional().default('.data'),
  DATABASE_POOL_SIZE: int(20),
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
  /** auto: neural super-resolution when it fits the time budget, else Lanczos3 (see engine/builtin/upscale.ts). */
  UPSCALE_METHOD: z.enum(['auto', 'lanczos3', 'neural']).optional().default('auto'),
  DEV_ALLOW_LOOPBACK_URLS: bool,
  STORAGE_DRIVER: z.enum(['local', 's3']).optional().default('local'),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional().default('us-east-1'),
  S3_ENDPOINT: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool,
  MODERATION_PROVIDER: z.enum(['builtin', 'openai']).optional().default('builtin'),
  MODERATION_URL: z.string().url().optional(),
  MODERATION_API_KEY: z.string().optional(),
  MODERATION_MODEL: z.string().optional(),
  /** Per client IP, counted before the key check (spec: 600). Raise only for load tests. */
  RATE_LIMIT_PER_IP_PER_MINUTE: int(600),
  /** `false`: no demo organization on first start. */
  SEED_DEMO: z.enum(['true', 'false']).optional().default('true'),
  /** `1`: `npm start` does not (re)build the web app even if sources are newer. */
  SKIP_BUILD: z.enum(['0', '1']).optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).optional().default('info'),
  /** Trust X-Forwarded-For for the client IP (behind a proxy you control). */
  TRUST_PROXY: bool,
  // --- Console (Auth.js sessions, sign-up) ---
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
  /** Mail relay (smtp://user:pass@host:port); unset = mail stays in the outbox shown in the console. */
  SMTP_URL: z.string().optional(),
});

export type Config = z.infer<typeof envSchema> & { dataDir: string; publicBaseUrl: string };

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
