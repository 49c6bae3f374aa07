import { randomUUID } from 'node:crypto';
import { createAgent, createWorkspace, KeyPool } from '../../test/helpers/live/accounts';
import { measureHttp, type HttpResult } from '../lib/load';
import { freePort } from '../lib/ports';
import { startApiProcess, startWorkerProcess } from '../../test/helpers/live/processes';
import {
  accountRuns,
  drainRuns,
  executionRate,
  idempotencyAcrossReplicas,
  sharedRateLimit,
  workerIdentities,
} from '../lib/replicaChecks';
import { fmt, ratio, table } from '../lib/stats';
import type { BenchContext, CaseResult } from '../lib/context';

interface Phase {
  setup: string;
  perApi: HttpResult[];
  /** Create throughput of all APIs together (2xx per second). */
  rps: number;
  /** Ids of every 201, warm-up included: each of those runs must succeed. */
  ids: string[];
  /** Runs executed per second: first created → last completed. */
  executedPerSecond: number;
  /** From the end of the load until every run of the workspace had finished. */
  drainSeconds: number;
  /** Requests that may have been in flight, unread, when a load window stopped: one per connection. */
  inFlightBound: number;
}

/**
 * `POST /v1/runs` load spread evenly over `urls` (autocannon, one instance per API, the connections
 * split between them), every request with a fresh Idempotency-Key as the client package sends; then
 * waits until every run has finished.
 */
async function createLoad(ctx: BenchContext, setup: string, urls: string[], pool: KeyPool, agentId: string) {
  const ids: string[] = [];
  const connections = Math.max(1, Math.round(ctx.connections / urls.length));
  await pool.ensure(4000 * (ctx.seconds + ctx.warmupSeconds));
  const perApi = await Promise.all(
    urls.map((url) =>
      measureHttp({
        url: `${url}/v1/runs`,
        method: 'POST',
        body: JSON.stringify({ agentId, input: { text: 'replicas' } }),
        perRequestHeaders: () => ({ authorization: pool.next(), 'idempotency-key': randomUUID() }),
        onResponse: (status, body) => {
          if (status === 201) ids.push(JSON.parse(body).id);
        },
        connections,
        seconds: ctx.seconds,
        warmupSeconds: ctx.warmupSeconds,
      }),
    ),
  );
  const drainSeconds = await drainRuns(ctx.orm, pool.workspaceId);
  const phase: Phase = {
    setup,
    perApi,
    rps: perApi.reduce((sum, r) => sum + r.rps, 0),
    ids,
    executedPerSecond: await executionRate(ctx.orm, ids),
    drainSeconds,
    inFlightBound: (ctx.warmupSeconds > 0 ? 2 : 1) * connections * urls.length,
  };
  console.error(`  replicas: ${setup} done (${ids.length} runs)`);
  return phase;
}

const verdict = (ok: boolean) => (ok ? 'ok' : '**FAILED**');

/**
 * Case 9: replicas. Two API processes and two workers (the same task queue) on one PostgreSQL and one
 * Temporal, against one of each: create throughput with the load split evenly over the APIs, and what
 * must still hold with replicas: every 201's run exists once, one run per Idempotency-Key even when the
 * same key reaches both APIs at once, every run succeeds and both workers execute runs, and a key's
 * per-minute rate limit is one counter across the APIs (docs/api/limits.md).
 */
export async function replicasCase(ctx: BenchContext): Promise<CaseResult> {
  const samples = Number(process.env.BENCH_REPLICAS_IDEMPOTENT ?? 50);
  const ws = await createWorkspace(ctx.apiUrl, ctx.orm);
  const pool = new KeyPool(ctx.orm, ws.id);
  await pool.ensure(1000);
  const agentId = await createAgent(ctx.apiUrl, pool.next());

  const one = await createLoad(ctx, '1 API + 1 worker', [ctx.apiUrl], pool, agentId);

  // the second API on a port of its own, the second worker on the same task queue as the first
  const port = await freePort(Number(new URL(ctx.baselineUrl).port) + 1);
  const env = { ...ctx.processEnv, TEMPORAL_TASK_QUEUE: ctx.runsQueue };
  const [api2, worker2] = await Promise.all([
    startApiProcess('api-2', port, env, ctx.logDir),
    startWorkerProcess(
      'worker-2',
      { ...env, BENCH_BARE_QUEUE: ctx.bareQueue },
      ctx.logDir,
      'bench/worker.ts',
      'bench worker running',
    ),
  ]);
  try {
    const urls: [string, string] = [ctx.apiUrl, api2.url];
    const two = await createLoad(ctx, '2 APIs + 2 workers', urls, pool, agentId);
    const body = { agentId, input: { text: 'replicas' } };
    const idempotency = await idempotencyAcrossReplicas(ctx.orm, ws.id, urls, () => pool.next(), body, samples);
    await drainRuns(ctx.orm, ws.id);
    const created = [...one.ids, ...two.ids, ...idempotency.created];
    const runs = await accountRuns(ctx.orm, ws.id, created, one.inFlightBound + two.inFlightBound);
    const workers = await workerIdentities(ctx.client, two.ids);
    const rateLimit = await sharedRateLimit(ctx.orm, urls);
    return report(ctx, { one, two, idempotency, runs, workers, rateLimit });
  } finally {
    await Promise.all([api2.stop(), worker2.stop()]);
  }
}

function report(
  ctx: BenchContext,
  r: {
    one: Phase;
    two: Phase;
    idempotency: Awaited<ReturnType<typeof idempotencyAcrossReplicas>>;
    runs: Awaited<ReturnType<typeof accountRuns>>;
    workers: Awaited<ReturnType<typeof workerIdentities>>;
    rateLimit: Awaited<ReturnType<typeof sharedRateLimit>>;
  },
): CaseResult {
  const { one, two, idempotency, runs, workers, rateLimit } = r;
  const createRatio = ratio(two.rps, one.rps);
  const executedRatio = ratio(two.executedPerSecond, one.executedPerSecond);
  const loadRows = [one, two].flatMap((p) =>
    p.perApi.map((a, i) => [p.setup, `API ${i + 1}`, a.rps, a.p50, a.p95, a.p99, a.count, a.errors]),
  );
  const phaseRows = [one, two].map((p) => [p.setup, p.rps, p.ids.length, p.executedPerSecond, p.drainSeconds]);
  const checks = [
    [
      'every 201 names a run that exists, no id twice',
      `${runs.answered201} answers, ${runs.distinctIds} ids, ${runs.idsFound} found`,
      verdict(runs.idsUnique),
    ],
    [
      'no two runs share an Idempotency-Key',
      `${runs.keysSharedByRuns} keys on more than one run`,
      verdict(runs.keysSharedByRuns === 0),
    ],
    [
      `one key sent to both APIs at once (${idempotency.keys} keys)`,
      `${idempotency.oneRunEach} keys with one run, ${idempotency.answersAgree} whose answers all name it; statuses ${JSON.stringify(idempotency.statuses)}`,
      verdict(idempotency.ok),
    ],
    [
      'no run without a 201 but those in flight when the load stopped',
      `${runs.rows} runs, ${runs.rowsWithout201} without a 201 read, at most ${runs.inFlightBound} requests in flight`,
      verdict(runs.noRunWithout201),
    ],
    ['every run succeeded', JSON.stringify(runs.byStatus), verdict(runs.allSucceeded)],
    [
      'both workers executed runs',
      `workflow tasks and activities started per worker in ${workers.runsSampled} runs: ${JSON.stringify(workers.tasks)}`,
      verdict(workers.ok),
    ],
    [
      `one \`${rateLimit.plan}\` key across both APIs`,
      `${rateLimit.admitted} of ${rateLimit.sent} admitted, limit ${rateLimit.limit}/min; statuses ${JSON.stringify(rateLimit.statuses)}`,
      verdict(rateLimit.ok),
    ],
  ];
  const markdown = [
    `### 9. Replicas: 2 APIs + 2 workers against 1 + 1 (${ctx.connections} connections in all, ${ctx.seconds} s)`,
    '',
    '`POST /v1/runs` (echo agent, a fresh Idempotency-Key each) spread evenly over the APIs; the workers execute the runs meanwhile.',
    '',
    table(['setup', 'API', 'create /s', 'p50 ms', 'p95 ms', 'p99 ms', 'n', 'errors'], loadRows),
    '',
    table(['setup', 'create /s (all APIs)', 'runs created', 'runs executed /s', 'drain after load s'], phaseRows),
    '',
    `2 + 2 ÷ 1 + 1: create throughput **${fmt(createRatio, 2)}×**, runs executed per second ${fmt(executedRatio, 2)}×.`,
    '',
    table(['check', 'seen', 'verdict'], checks),
  ].join('\n');
  return {
    title: 'replicas',
    markdown,
    data: {
      phases: [one, two].map(({ ids, ...p }) => ({ ...p, runsCreated: ids.length })),
      ratio: { createThroughput: createRatio, executedPerSecond: executedRatio },
      checks: { runs, idempotency: { ...idempotency, created: idempotency.created.length }, workers, rateLimit },
    },
  };
}
