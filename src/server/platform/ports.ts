import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * Ports for servers that bind some seconds after the port is chosen: the embedded PostgreSQL,
 * and the test and bench servers, which start a database, migrate and load Next first.
 *
 * A port the kernel picked (`listen(0)`) and released is free only for an instant: the next
 * `listen(0)` anywhere on the machine may be handed the same port, so a server that binds seconds
 * after its port was picked can meet `EADDRINUSE`. So the port comes from
 * the band just below the kernel's ephemeral range, which the kernel never hands out by itself,
 * and a lock file in the temp directory keeps two Roomtone processes from choosing the same one.
 * A lock is stale once its process has exited; the port is checked free by binding it.
 */
const BAND_SIZE = 8192;
export const LOCK_DIR = path.join(os.tmpdir(), 'roomtone-ports');
/** Whether this process has swept the stale locks yet (once is enough). */
let swept = false;

/** The kernel's ephemeral range from procfs (the Linux default when it cannot be read). */
export function ephemeralRange(read: () => string = () => fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')): [number, number] {
  try {
    const [low = NaN, high = NaN] = read().trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && low > 0 && high >= low) return [low, high];
  } catch {
    // not Linux, or no procfs
  }
  return [32768, 60999];
}

/** The band reserved ports come from: below the ephemeral range, above the privileged ports. */
export function reservableBand(range: [number, number] = ephemeralRange()): [number, number] | null {
  const high = range[0] - 1;
  const low = Math.max(1024, high - BAND_SIZE + 1);
  // An ephemeral range that starts near 1024 leaves no band: fall back to the kernel's pick.
  return high - low >= 1023 ? [low, high] : null;
}

function ownerAlive(lockPath: string): boolean {
  let pid: number;
  let ageMs: number;
  try {
    pid = Number(fs.readFileSync(lockPath, 'utf8') || NaN);
    ageMs = Date.now() - fs.statSync(lockPath).mtimeMs;
  } catch {
    return false;
  }
  // No pid yet: a lock being written this instant (its owner creates the file, then writes).
  if (!Number.isInteger(pid) || pid <= 0) return ageMs < 10_000;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, owned by another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock for `port`, taking over a stale one. False when a live process holds it. */
function lockPort(port: number): boolean {
  const lockPath = path.join(LOCK_DIR, String(port));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (ownerAlive(lockPath)) return false;
      fs.rmSync(lockPath, { force: true });
    }
  }
  return false;
}

function unlockPort(port: number): void {
  fs.rmSync(path.join(LOCK_DIR, String(port)), { force: true });
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A TCP port free on 127.0.0.1 that stays this process's to bind (or hand to a child) for its
 * lifetime: no other Roomtone process picks it, and the kernel does not hand it out.
 */
export async function freePort(): Promise<number> {
  const band = reservableBand();
  if (!band) return kernelPort();
  try {
    fs.mkdirSync(LOCK_DIR, { recursive: true });
    if (!swept) {
      swept = true;
      sweepStaleLocks();
    }
    const size = band[1] - band[0] + 1;
    const start = Math.floor(Math.random() * size);
    const port = await lockFirstFree(Array.from({ length: size }, (_, i) => band[0] + ((start + i) % size)));
    if (port !== null) return port;
  } catch (error) {
    // A lock directory this user cannot write (made by another user): the kernel's pick.
    if (!['EACCES', 'EPERM', 'EROFS'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
  return kernelPort();
}

/** The first of `candidates` this process could lock and bind (exported for tests). */
export async function lockFirstFree(candidates: number[]): Promise<number | null> {
  for (const port of candidates) {
    if (!lockPort(port)) continue;
    if (await bindable(port)) return port;
    // Someone outside Roomtone listens there: leave it, and do not keep the lock.
    unlockPort(port);
  }
  return null;
}


/** Removes the locks of processes that have exited (once per process), so the directory stays small. */
export function sweepStaleLocks(): void {
  for (const name of fs.readdirSync(LOCK_DIR)) {
    const lockPath = path.join(LOCK_DIR, name);
    if (!ownerAlive(lockPath)) fs.rmSync(lockPath, { force: true });
  }
}
