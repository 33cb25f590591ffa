/**
 * CPU accounting from Linux /proc, for the benchmarks (CPU per request is steadier than req/s
 * on a noisy machine) and the test harness's process log (test/start-server.ts).
 */
import fs from 'node:fs';

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux build Node supports

interface ProcStat {
  pid: number;
  ppid: number;
  cpuMs: number;
}

function readProcStats(): ProcStat[] | null {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return null;
  }
  const out: ProcStat[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid ..." — comm may contain spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      // utime + stime + cutime + cstime: children that exited (e.g. PostgreSQL backends of a
      // closed pool connection) keep counting through their parent.
      const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      out.push({ pid: Number(entry), ppid, cpuMs: (ticks * 1000) / CLOCK_TICKS_PER_SECOND });
    } catch {
      // exited while we looked
    }
  }
  return out;
}

/** CPU ms used so far by one process (its threads included, its children not); null if unreadable. */
export function ownCpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** CPU ms used so far by each root pid's process tree (null where /proc is unavailable). */
export function treeCpuMs(rootPids: (number | null | undefined)[]): (number | null)[] {
  const stats = readProcStats();
  if (!stats) return rootPids.map(() => null);
  const children = new Map<number, ProcStat[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  const byPid = new Map(stats.map((s) => [s.pid, s]));
  return rootPids.map((root) => {
    if (!root || !byPid.has(root)) return null;
    let total = 0;
    const stack = [root];
    while (stack.length > 0) {
      const pid = stack.pop() as number;
      total += byPid.get(pid)?.cpuMs ?? 0;
      for (const c of children.get(pid) ?? []) stack.push(c.pid);
    }
    return total;
  });
}
