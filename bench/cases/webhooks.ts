import { randomUUID } from 'node:crypto';
import { createAgent, createWorkspace, KeyPool } from '../../test/helpers/live/accounts';
import { expectStatus, waitForTerminal } from '../../test/helpers/live/http';
import { fmt, percentile, ratio, table } from '../lib/stats';
import { arrivals, startReceivers, untilEveryoneHas, type Arrivals, type Receivers } from '../lib/receivers';
import { sleep, type BenchContext, type CaseResult } from '../lib/context';
import type { bareFanOutWorkflow } from '../baseline/workflows';

/**
 * Subscriber counts, and how many runs (one at a time) each level measures: at least 20 runs and 100
 * first attempts a level, so that a p99 is not one run's maximum (20 attempts at one subscriber made
 * their p99 the slowest of them, and 5 fan-outs made the 100-subscriber p99 the tail of the slowest one).
 * `baseline`: the level's runs alternate with as many of the fan-out baseline (bareFanOut).
 */
const LEVELS: Array<{ subscribers: number; runs: number; baseline?: true }> = [
  { subscribers: 0, runs: 20 },
  { subscribers: 1, runs: 100, baseline: true },
  { subscribers: 10, runs: 20 },
  { subscribers: 100, runs: 20, baseline: true },
];

/** A level: the service's runs' completion and workflow times, and their first attempts (Arrivals). */
interface LevelResult extends Arrivals {
  subscribers: number;
  runs: number;
  /** create → `succeeded` on the event stream, per run. */
  completion: { p50: number; p99: number; max: number };
  /** Workflow start → close in Temporal (includes the announcement of the status change), per run. */
  workflow: { p50: number; max: number };
  /** The fan-out baseline's runs of the level, each right after the service's run of the same index. */
  baseline?: Arrivals;
}

/**
 * Case 5: one run at a time with 0, 1, 10 and 100 subscriptions (to `run.succeeded`, receivers on
 * 127.0.0.1). Measures the delay from the status change to each subscriber's first attempt, and the
 * run's own completion time, which must not grow with the subscriber count. First, as the other cases
 * warm up for BENCH_WARMUP_SECONDS, runs of another workspace with 100 subscriptions to the same
 * receivers go through the same path for that long, unmeasured: the levels then measure a worker whose
 * delivery code is compiled, as in a service that has been running, not its first few fan-outs.
 * At 1 and 100 subscribers the fan-out baseline goes too, a run of it after each of the service's: what
 * the target's ratio comes to for the work any fan-out must do, on the same machine at the same time.
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

/**
 * BENCH_WARMUP_SECONDS of runs, one at a time, each announced to 100 subscribers (at least 3 runs), each
 * followed by a run of the fan-out baseline to the same 100 receivers.
 */
async function warmUp(ctx: BenchContext, receivers: Receivers): Promise<void> {
  const { auth, subscribe, startRun } = await account(ctx, receivers, 200);
  for (let n = 0; n < 100; n++) await subscribe(n);
  const until = Date.now() + ctx.warmupSeconds * 1000;
  for (let i = 0; i < 3 || Date.now() < until; i++) {
    const run = await startRun('warm-up');
    await waitForTerminal(ctx.apiUrl, run.id, auth());
    await untilEveryoneHas(receivers, run.id, 100);
    await ctx.client.workflow.getHandle(`run-${run.id}`).result();
    await bareFanOut(ctx, receivers, 100);
  }
}

/** Each of the run's `subscribers` first attempts' delay after `changedAt`, once all have arrived. */
async function delaysOf(receivers: Receivers, runId: string, subscribers: number, changedAt: number) {
  return (await untilEveryoneHas(receivers, runId, subscribers)).map((k) => receivers.firstAttempt.get(k)! - changedAt);
}

/**
 * One run of the fan-out baseline to receivers 0…`subscribers`-1 (bareFanOutWorkflow: the status change in
 * one commit, then the deliveries recorded in one and sent at once, with nothing of the service around
 * them): each first attempt's delay after the status change.
 */
async function bareFanOut(ctx: BenchContext, receivers: Receivers, subscribers: number): Promise<number[]> {
  const runId = randomUUID();
  await ctx.orm.em
    .fork()
    .getConnection()
    .execute(`insert into bench_baseline_runs (id, workspace_id, input) values (?, ?, '{"text":"fan-out"}')`, [
      runId,
      runId,
    ]);
  const urls = Array.from({ length: subscribers }, (_, n) => receivers.url(n));
  const changedAt = await ctx.client.workflow.execute<typeof bareFanOutWorkflow>('bareFanOutWorkflow', {
    taskQueue: ctx.bareQueue,
    workflowId: `bare-fanout-${runId}`,
    args: [runId, urls],
  });
  return delaysOf(receivers, runId, subscribers, changedAt);
}

async function measure(ctx: BenchContext, receivers: Receivers): Promise<CaseResult> {
  const { auth, subscribe, startRun } = await account(ctx, receivers, 1000);
  const results: LevelResult[] = [];
  let subscribed = 0;
  for (const level of LEVELS) {
    for (; subscribed < level.subscribers; subscribed++) await subscribe(subscribed);
    const completion: number[] = [];
    const workflow: number[] = [];
    const service = arrivals();
    const baseline = arrivals();
    for (let i = 0; i < level.runs; i++) {
      const t0 = Date.now();
      const run = await startRun('fan-out');
      const done = await waitForTerminal(ctx.apiUrl, run.id, auth());
      completion.push(Date.now() - t0);
      service.add(await delaysOf(receivers, run.id, level.subscribers, Date.parse(done.completedAt)));
      const handle = ctx.client.workflow.getHandle(`run-${run.id}`);
      await handle.result();
      const info = await handle.describe();
      workflow.push(info.closeTime!.getTime() - info.startTime.getTime());
      // let the delivery workflows of this run finish before the next run
      await sleep(200);
      if (level.baseline) {
        baseline.add(await bareFanOut(ctx, receivers, level.subscribers));
        await sleep(200);
      }
    }
    const sortedC = [...completion].sort((a, b) => a - b);
    const sortedW = [...workflow].sort((a, b) => a - b);
    results.push({
      subscribers: level.subscribers,
      runs: level.runs,
      completion: { p50: percentile(sortedC, 50), p99: percentile(sortedC, 99), max: sortedC[sortedC.length - 1] },
      workflow: { p50: percentile(sortedW, 50), max: sortedW[sortedW.length - 1] },
      ...service.summary(),
      ...(level.baseline ? { baseline: baseline.summary() } : {}),
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
    ...arrivalCells(r),
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
    '',
    'The fan-out baseline, each of its runs right after the service’s run of the same index: a bare workflow whose local activity records the status change in one commit, and whose next one records the deliveries in one commit and sends them at once with `http.request` (signed, keep-alive), nothing else; first attempt = its status change → the subscriber receives it.',
    '',
    table(
      [
        'subscribers',
        'runs',
        'deliveries',
        'first attempt p50 ms',
        'p99 ms',
        'a run’s first / last arrival ms (p50, p50, max)',
      ],
      results.filter((r) => r.baseline).map((r) => [r.subscribers, r.runs, ...arrivalCells(r.baseline!)]),
    ),
    '',
    fanOutSummary(results),
  ].join('\n');
  return { title: 'webhooks', markdown, data: { levels: results } };
}

/** A level's deliveries, first attempt p50 and p99, and its runs' first / last arrival, as table cells. */
function arrivalCells(a: Arrivals): Array<string | number> {
  return [
    a.firstAttempt ? a.firstAttempt.n : '–',
    a.firstAttempt ? a.firstAttempt.p50 : '–',
    a.firstAttempt ? a.firstAttempt.p99 : '–',
    a.spread ? `${a.spread.firstP50} / ${a.spread.lastP50} / ${a.spread.lastMax}` : '–',
  ];
}

/**
 * The target's ratio (first-attempt p99, 100 subscribers ÷ 1) for the service and the baseline, and what 99
 * more subscribers add to the p99 in each: how much of the ratio is the necessary work's on this machine.
 */
function fanOutSummary(results: LevelResult[]): string {
  const one = results.find((r) => r.subscribers === 1);
  const hundred = results.find((r) => r.subscribers === 100);
  const p99 = (a?: Arrivals) => a?.firstAttempt?.p99 ?? NaN;
  const line = (name: string, a?: Arrivals, b?: Arrivals) =>
    `${name} ${fmt(ratio(p99(b), p99(a)), 2)}× (${p99(b)} ÷ ${p99(a)} ms, ${p99(b) - p99(a)} ms more)`;
  return (
    'First-attempt p99, 100 subscribers ÷ 1: ' +
    `${line('the service', one, hundred)}; ${line('the baseline', one?.baseline, hundred?.baseline)}.`
  );
}
