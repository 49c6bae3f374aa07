import { percentile } from './stats';

/**
 * Open-loop load: operations arrive at a fixed rate whether or not earlier ones have finished, so a
 * slow service shows as latency (and a growing number in flight) instead of being hidden by a
 * client that waits before it sends the next request, as the closed loops of bench/lib/load.ts do.
 * Latencies count from the moment an operation was due, not from when the generator got to it.
 */

/** Epoch milliseconds with sub-millisecond precision, monotonic within this process. */
export const nowMs = () => performance.timeOrigin + performance.now();

/** Latencies of one kind of operation, each with the time it started (epoch ms), and its failures. */
export class OpLog {
  readonly samples: Array<{ at: number; ms: number }> = [];
  errors = 0;
  /** The first few failures' messages, with when they happened. */
  readonly firstErrors: Array<{ at: number; message: string }> = [];

  add(at: number, ms: number): void {
    this.samples.push({ at, ms });
  }

  fail(at: number, err: unknown): void {
    this.errors++;
    if (this.firstErrors.length < 5) this.firstErrors.push({ at, message: (err as Error)?.message ?? String(err) });
  }

  /** Count, p50 and p99 of the operations that started in [from, to). */
  window(from: number, to: number): { count: number; p50: number; p99: number } {
    const sorted = this.samples
      .filter((s) => s.at >= from && s.at < to)
      .map((s) => s.ms)
      .sort((a, b) => a - b);
    return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  }
}

export interface OpenLoopResult {
  /** Epoch ms of the first arrival and of the end of the schedule (not of the last completion). */
  startedAt: number;
  endedAt: number;
  fired: number;
  /** How late the generator fired an operation at worst (ms): its own lag, already inside every latency. */
  maxLagMs: number;
  /** Most operations in flight at once. */
  maxInFlight: number;
}

/**
 * Fires `operation(k, dueAt)` at `rate` per second for `seconds`, then waits for every fired
 * operation to settle. `operation` records its own outcome; a rejection is its own bug and is
 * rethrown.
 */
export async function openLoop(opts: {
  rate: number;
  seconds: number;
  operation: (k: number, dueAt: number) => Promise<void>;
}): Promise<OpenLoopResult> {
  const total = Math.floor(opts.rate * opts.seconds);
  const startedAt = nowMs();
  const inFlight = new Set<Promise<void>>();
  let maxLagMs = 0;
  let maxInFlight = 0;
  let failure: unknown;
  for (let k = 0; k < total; k++) {
    const dueAt = startedAt + (k * 1000) / opts.rate;
    const wait = dueAt - nowMs();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    maxLagMs = Math.max(maxLagMs, nowMs() - dueAt);
    const op: Promise<void> = opts
      .operation(k, dueAt)
      .catch((err) => {
        failure ??= err;
      })
      .finally(() => inFlight.delete(op));
    inFlight.add(op);
    maxInFlight = Math.max(maxInFlight, inFlight.size);
  }
  const endedAt = startedAt + opts.seconds * 1000;
  await Promise.all(inFlight);
  if (failure) throw failure;
  return { startedAt, endedAt, fired: total, maxLagMs, maxInFlight };
}
