import fs from 'node:fs';
import path from 'node:path';

/**
 * How busy the machine was with work that is not ours, so that a noisy result can be told from a
 * slow service. Linux only (/proc); elsewhere it reports nothing.
 *
 * Ours = this process, the PostgreSQL and Temporal of this data dir, and every descendant of them,
 * including descendants that have exited meanwhile. Foreign = all busy CPU time minus ours.
 */
export interface CpuSample {
  at: number;
  busy: number;
  ours: number;
}

/** One tick of /proc's CPU times (USER_HZ is 100 on Linux). */
export const TICK_MS = 10;

/** The pid in the first line of a pid file, if any. */
export function readPid(file: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').split('\n')[0].trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** utime and stime in microseconds of a /proc stat file (a process's, or one thread's under task/). */
export function statTimes(file: string): { user: number; system: number } {
  // the command name may contain spaces; the fields after its closing parenthesis are fixed
  const stat = fs.readFileSync(file, 'utf8');
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(rest[11]) * TICK_MS * 1000, system: Number(rest[12]) * TICK_MS * 1000 };
}

/** Total busy CPU time of the machine (ms), from the first line of /proc/stat. */
function machineBusy(): number {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return (user + nice + system + irq + softirq + (steal ?? 0)) * TICK_MS;
}

/** CPU time (ms) of the roots and all their descendants. */
export function treeCpu(roots: number[]): number {
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // the command name may contain spaces; the fields after its closing parenthesis are fixed
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(entry), Number(rest[1]));
      // utime + stime, plus cutime + cstime: the time of descendants that exited and were waited for
      // (a case's own API or worker stopped before the second sample, a PostgreSQL backend that ended)
      // lives on in its parent's, and would otherwise count as foreign
      cpu.set(Number(entry), (Number(rest[11]) + Number(rest[12]) + Number(rest[13]) + Number(rest[14])) * TICK_MS);
    } catch {
      // the process ended meanwhile
    }
  }
  const rootSet = new Set(roots);
  let total = 0;
  for (const [pid, ms] of cpu) {
    for (let p: number | undefined = pid; p && p > 1; p = parent.get(p)) {
      if (rootSet.has(p)) {
        total += ms;
        break;
      }
    }
  }
  return total;
}

export function cpuSample(dataDir: string): CpuSample | null {
  if (!fs.existsSync('/proc/stat')) return null;
  const roots = [
    process.pid,
    readPid(path.join(dataDir, 'temporal.pid')),
    // the real Temporal server's two processes (BENCH_TEMPORAL=pg)
    readPid(path.join(dataDir, 'temporal-server/core.pid')),
    readPid(path.join(dataDir, 'temporal-server/frontend.pid')),
    readPid(path.join(dataDir, 'pg/postmaster.pid')),
  ];
  return { at: Date.now(), busy: machineBusy(), ours: treeCpu(roots.filter((p): p is number => p !== undefined)) };
}

/** Between two samples: the share of all cores used by the benchmark and by everything else, in %. */
export function cpuShare(a: CpuSample | null, b: CpuSample | null, cores: number) {
  if (!a || !b || b.at <= a.at) return null;
  const capacity = (b.at - a.at) * cores;
  const ours = Math.max(0, b.ours - a.ours);
  const foreign = Math.max(0, b.busy - a.busy - ours);
  return { oursPct: Math.round((100 * ours) / capacity), foreignPct: Math.round((100 * foreign) / capacity) };
}
