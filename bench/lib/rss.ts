import fs from 'node:fs';

/**
 * Resident memory of the processes under test, for the soak case (a leak shows as RSS that keeps
 * growing under steady load). Linux only (/proc); elsewhere every reading is null.
 *
 * A process under test is a tree: tsx, the node process it starts, and whatever those start. Its
 * RSS is the sum of VmRSS over the tree, read from /proc/<pid>/status (which carries PPid as well).
 */
export interface RssSample {
  /** Epoch ms of the reading. */
  at: number;
  /** MiB per named tree; null once its root is gone. */
  mib: Record<string, number | null>;
}

/** VmRSS (kB) and parent of every process, one pass over /proc. */
function processTable(): { parent: Map<number, number>; rssKb: Map<number, number> } {
  const parent = new Map<number, number>();
  const rssKb = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = fs.readFileSync(`/proc/${entry}/status`, 'utf8');
      const pid = Number(entry);
      parent.set(pid, Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0));
      // kernel threads have no VmRSS line
      rssKb.set(pid, Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0));
    } catch {
      // the process ended meanwhile
    }
  }
  return { parent, rssKb };
}

/** RSS in MiB of each named root process and all its descendants. */
export function treeRss(roots: Record<string, number>): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  if (!fs.existsSync('/proc/self/status')) {
    for (const name of Object.keys(roots)) out[name] = null;
    return out;
  }
  const { parent, rssKb } = processTable();
  const byRoot = new Map<number, number>(Object.values(roots).map((pid) => [pid, 0]));
  for (const [pid, kb] of rssKb) {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parent.get(p)) {
      if (byRoot.has(p)) {
        byRoot.set(p, byRoot.get(p)! + kb);
        break;
      }
    }
  }
  for (const [name, pid] of Object.entries(roots)) out[name] = rssKb.has(pid) ? byRoot.get(pid)! / 1024 : null;
  return out;
}

/** Reads `treeRss(roots)` now and every `everyMs` until `stop()`. */
export class RssSampler {
  readonly samples: RssSample[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly roots: Record<string, number>,
    private readonly everyMs: number,
  ) {}

  start(): void {
    const read = () => this.samples.push({ at: Date.now(), mib: treeRss(this.roots) });
    read();
    this.timer = setInterval(read, this.everyMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.samples.push({ at: Date.now(), mib: treeRss(this.roots) });
  }
}
