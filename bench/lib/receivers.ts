import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { percentile } from './stats';
import { sleep } from './context';

/**
 * Webhook receivers on 127.0.0.1 (cases 5 and 10): `/hook/<n>` is subscriber n; records when each first attempt
 * of a run arrives (the body's `run.id`, `X-SVC-Attempt: 1`).
 */
export async function startReceivers() {
  const firstAttempt = new Map<string, number>(); // `${n}:${runId}` → arrival (epoch ms)
  let received = 0;
  const server = http.createServer((req, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received++;
      const n = /^\/hook\/(\d+)$/.exec(req.url ?? '')?.[1];
      const runId = JSON.parse(Buffer.concat(chunks).toString('utf8'))?.run?.id;
      const key = `${n}:${runId}`;
      if (req.headers['x-svc-attempt'] === '1' && !firstAttempt.has(key)) firstAttempt.set(key, at);
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (n: number) => `${base}/hook/${n}`,
    firstAttempt,
    received: () => received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** First attempts of a level's runs: status change → arrival at each subscriber. */
export interface Arrivals {
  /** Status change (a run's completedAt) → first attempt at each subscriber. */
  firstAttempt: { n: number; p50: number; p99: number; max: number } | null;
  /** Per run, the first and the last of its subscribers' first attempts (the same delays): p50 over runs, and the slowest. */
  spread: { firstP50: number; lastP50: number; lastMax: number } | null;
  /** Each run's last arrival, in the order the runs went: which fan-outs make the tail. */
  lastByRun: number[];
}

/** Collects each run's delays (status change → each subscriber's first attempt) into Arrivals. */
export function arrivals() {
  const delays: number[] = [];
  const firsts: number[] = [];
  const lasts: number[] = [];
  return {
    add(mine: number[]) {
      delays.push(...mine);
      if (mine.length === 0) return;
      firsts.push(Math.min(...mine));
      lasts.push(Math.max(...mine));
    },
    summary(): Arrivals {
      const d = [...delays].sort((a, b) => a - b);
      const f = [...firsts].sort((a, b) => a - b);
      const l = [...lasts].sort((a, b) => a - b);
      return {
        firstAttempt: d.length
          ? { n: d.length, p50: percentile(d, 50), p99: percentile(d, 99), max: d[d.length - 1] }
          : null,
        spread: l.length ? { firstP50: percentile(f, 50), lastP50: percentile(l, 50), lastMax: l[l.length - 1] } : null,
        lastByRun: lasts,
      };
    },
  };
}

/** Waits until each of `subscribers` (receiver numbers 0…n-1) has the run's first attempt. */
export async function untilEveryoneHas(receivers: Receivers, runId: string, subscribers: number): Promise<string[]> {
  const deadline = Date.now() + 120_000;
  const keys = Array.from({ length: subscribers }, (_, n) => `${n}:${runId}`);
  while (keys.some((k) => !receivers.firstAttempt.has(k))) {
    if (Date.now() > deadline) throw new Error(`not every subscriber got run ${runId} within 120 s`);
    await sleep(20);
  }
  return keys;
}

export type Receivers = Awaited<ReturnType<typeof startReceivers>>;
