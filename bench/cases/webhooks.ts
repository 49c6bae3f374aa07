import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAgent, createWorkspace, KeyPool } from '../lib/accounts';
import { expectStatus, waitForTerminal } from '../lib/http';
import { fmt, percentile, ratio, table } from '../lib/stats';
import { sleep, type BenchContext, type CaseResult } from '../lib/context';

/**
 * Subscriber counts, and how many runs (one at a time) each level measures: at least 20 runs and 100
 * first attempts a level, so that a p99 is not one run's maximum (20 attempts at one subscriber made
 * their p99 the slowest of them, and 5 fan-outs made the 100-subscriber p99 the tail of the slowest one).
 */
const LEVELS: Array<{ subscribers: number; runs: number }> = [
  { subscribers: 0, runs: 20 },
  { subscribers: 1, runs: 100 },
  { subscribers: 10, runs: 20 },
  { subscribers: 100, runs: 20 },
];

/** A receiver on 127.0.0.1: `/hook/<n>` is subscriber n; records when each first attempt arrives. */
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

interface LevelResult {
  subscribers: number;
  runs: number;
  /** create → `succeeded` on the event stream, per run. */
  completion: { p50: number; p99: number; max: number };
  /** Workflow start → close in Temporal (includes the announcement of the status change), per run. */
  workflow: { p50: number; max: number };
  /** Status change (the run's completedAt) → first attempt at each subscriber. */
  firstAttempt: { n: number; p50: number; p99: number; max: number } | null;
  /** Per run, the first and the last of its subscribers' first attempts (the same delays): p50 over runs, and the slowest. */
  spread: { firstP50: number; lastP50: number; lastMax: number } | null;
  /** Each run's last arrival, in the order the runs went: which fan-outs make the tail. */
  lastByRun: number[];
}

/** Waits until each of `subscribers` (receiver numbers 0…n-1) has the run's first attempt. */
async function untilEveryoneHas(receivers: Receivers, runId: string, subscribers: number): Promise<string[]> {
  const deadline = Date.now() + 120_000;
  const keys = Array.from({ length: subscribers }, (_, n) => `${n}:${runId}`);
  while (keys.some((k) => !receivers.firstAttempt.has(k))) {
    if (Date.now() > deadline) throw new Error(`not every subscriber got run ${runId} within 120 s`);
    await sleep(20);
  }
  return keys;
}

type Receivers = Awaited<ReturnType<typeof startReceivers>>;

/**
 * Case 5: one run at a time with 0, 1, 10 and 100 subscriptions (to `run.succeeded`, receivers on
 * 127.0.0.1). Measures the delay from the status change to each subscriber's first attempt, and the
 * run's own completion time, which must not grow with the subscriber count. First, as the other cases
 * warm up for BENCH_WARMUP_SECONDS, runs of another workspace with 100 subscriptions to the same
 * receivers go through the same path for that long, unmeasured: the levels then measure a worker whose
 * delivery code is compiled, as in a service that has been running, not its first few fan-outs.
 */
export async function webhooksCase(ctx: BenchContext): Promise<CaseResult> {
  const receivers = await startReceivers();
  try {
    await warmUp(ctx, receivers);
    return await measure(ctx, receivers);
  } finally {
    await receivers.close();
  }
}

/**
 * A workspace of the case's own with `keys` API keys and an echo agent: `subscribe(n)` subscribes
 * receiver n to `run.succeeded`, `startRun(text)` creates a run (its 201 body).
 */
async function account(ctx: BenchContext, receivers: Receivers, keys: number) {
  const ws = await createWorkspace(ctx.apiUrl, ctx.orm);
  const pool = new KeyPool(ctx.orm, ws.id);
  await pool.ensure(keys);
  const auth = () => ({ authorization: pool.next() });
  const agentId = await createAgent(ctx.apiUrl, pool.next());
  return {
    auth,
    subscribe: (n: number) =>
      expectStatus(201, `${ctx.apiUrl}/v1/webhooks`, {
        headers: auth(),
        json: { url: receivers.url(n), events: ['run.succeeded'], secret: 'bench-secret-0123456789' },
      }),
    startRun: (text: string) =>
      expectStatus(201, `${ctx.apiUrl}/v1/runs`, { headers: auth(), json: { agentId, input: { text } } }),
  };
}

/** BENCH_WARMUP_SECONDS of runs, one at a time, each announced to 100 subscribers (at least 3 runs). */
async function warmUp(ctx: BenchContext, receivers: Receivers): Promise<void> {
  const { auth, subscribe, startRun } = await account(ctx, receivers, 200);
  for (let n = 0; n < 100; n++) await subscribe(n);
  const until = Date.now() + ctx.warmupSeconds * 1000;
  for (let i = 0; i < 3 || Date.now() < until; i++) {
    const run = await startRun('warm-up');
    await waitForTerminal(ctx.apiUrl, run.id, auth());
    await untilEveryoneHas(receivers, run.id, 100);
    await ctx.client.workflow.getHandle(`run-${run.id}`).result();
  }
}

async function measure(ctx: BenchContext, receivers: Receivers): Promise<CaseResult> {
  const { auth, subscribe, startRun } = await account(ctx, receivers, 1000);
  const results: LevelResult[] = [];
  let subscribed = 0;
  for (const level of LEVELS) {
    for (; subscribed < level.subscribers; subscribed++) await subscribe(subscribed);
    const completion: number[] = [];
    const workflow: number[] = [];
    const delays: number[] = [];
    const firsts: number[] = [];
    const lasts: number[] = [];
    for (let i = 0; i < level.runs; i++) {
      const t0 = Date.now();
      const run = await startRun('fan-out');
      const done = await waitForTerminal(ctx.apiUrl, run.id, auth());
      completion.push(Date.now() - t0);
      const changedAt = Date.parse(done.completedAt);
      const mine = (await untilEveryoneHas(receivers, run.id, level.subscribers)).map(
        (k) => receivers.firstAttempt.get(k)! - changedAt,
      );
      delays.push(...mine);
      if (mine.length > 0) {
        firsts.push(Math.min(...mine));
        lasts.push(Math.max(...mine));
      }
      const handle = ctx.client.workflow.getHandle(`run-${run.id}`);
      await handle.result();
      const info = await handle.describe();
      workflow.push(info.closeTime!.getTime() - info.startTime.getTime());
      // let the delivery workflows of this run finish before the next run
      await sleep(200);
    }
    const sortedC = [...completion].sort((a, b) => a - b);
    const sortedW = [...workflow].sort((a, b) => a - b);
    const sortedD = [...delays].sort((a, b) => a - b);
    const sortedF = [...firsts].sort((a, b) => a - b);
    const sortedL = [...lasts].sort((a, b) => a - b);
    results.push({
      subscribers: level.subscribers,
      runs: level.runs,
      completion: { p50: percentile(sortedC, 50), p99: percentile(sortedC, 99), max: sortedC[sortedC.length - 1] },
      workflow: { p50: percentile(sortedW, 50), max: sortedW[sortedW.length - 1] },
      firstAttempt: sortedD.length
        ? {
            n: sortedD.length,
            p50: percentile(sortedD, 50),
            p99: percentile(sortedD, 99),
            max: sortedD[sortedD.length - 1],
          }
        : null,
      spread: sortedL.length
        ? { firstP50: percentile(sortedF, 50), lastP50: percentile(sortedL, 50), lastMax: sortedL[sortedL.length - 1] }
        : null,
      lastByRun: lasts,
    });
    console.error(`  webhooks: ${level.subscribers} subscribers done`);
  }

  const none = results[0];
  const rows = results.map((r) => [
    r.subscribers,
    r.runs,
    r.completion.p50,
    r.completion.max,
    `${fmt(ratio(r.completion.p50, none.completion.p50), 2)}×`,
    r.workflow.p50,
    r.firstAttempt ? r.firstAttempt.n : '–',
    r.firstAttempt ? r.firstAttempt.p50 : '–',
    r.firstAttempt ? r.firstAttempt.p99 : '–',
    r.spread ? `${r.spread.firstP50} / ${r.spread.lastP50} / ${r.spread.lastMax}` : '–',
  ]);
  const markdown = [
    '### 5. Webhook fan-out (one run at a time, receivers on 127.0.0.1)',
    '',
    `After ${ctx.warmupSeconds} s of unmeasured runs announced to 100 subscribers (another workspace, the same receivers). ` +
      'Run completion = `POST /v1/runs` → `succeeded` on the event stream (what the caller waits for); workflow = its Temporal execution, start → close, which also contains the deliveries (the fan-out activity, whatever the subscriber count, and attempts 2 and 3 of any whose attempt 1 failed), so it follows the subscribers’ attempts while run completion does not; first attempt = the run’s `completedAt` → the subscriber receives attempt 1; a run’s first and last arrival = the earliest and the latest of its subscribers’ first attempts (how long its fan-out took to start, and to reach everyone).',
    '',
    table(
      [
        'subscribers',
        'runs',
        'run completion p50 ms',
        'max ms',
        'p50 vs 0 subs',
        'workflow p50 ms',
        'deliveries',
        'first attempt p50 ms',
        'p99 ms',
        'a run’s first / last arrival ms (p50, p50, max)',
      ],
      rows,
    ),
  ].join('\n');
  return { title: 'webhooks', markdown, data: { levels: results } };
}
