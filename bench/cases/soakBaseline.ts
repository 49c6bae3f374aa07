import { randomUUID } from 'node:crypto';
import { type BenchContext, type CaseResult, sleep } from '../lib/context';
import { expectStatus, request, waitForTerminal } from '../../test/helpers/live/http';
import { nowMs, OpLog, openLoop } from '../lib/openLoop';
import { fmt, table } from '../lib/stats';
import type { bareDurableRunWorkflow } from '../baseline/workflows';
import { soakSettings } from './soak';

const num = (name: string, def: number) => (process.env[name] ? Number(process.env[name]) : def);

type BaseOp = 'start' | 'run' | 'read';
const LABELS: Record<BaseOp, string> = {
  start: 'row committed + `workflow.start`, due → answered',
  run: 'bare durable run, due → its `succeeded` commit',
  read: 'bare `GET /runs/:id` (one `select`), due → 200',
};

/**
 * The soak's load without the service (opt-in, `BENCH_CASES=soakbase`): at the soak's rate and mix,
 * every run arrival (an echo run or a gate run in case 10) is the necessary work of a durable run (its
 * row committed, then `bareDurableRunWorkflow` started: three activities, each one commit), and every
 * read is the bare server's one `select`. No model, no gate, no webhook: it asks less of the machine
 * than case 10 does. Whether Temporal and PostgreSQL on this machine keep up with the run arrivals at
 * that rate is what bounds case 10 (bench/README.md, Soak).
 */
export async function soakBaselineCase(ctx: BenchContext): Promise<CaseResult> {
  const { minutes, warmupSeconds, drainSeconds, mixSpec, mix, rate, source, createRps, seconds } = await soakSettings(
    ctx,
    num('BENCH_SOAK_BASELINE_MINUTES', 3),
  );
  console.error(
    `  soakbase: ${rate.toFixed(1)} arrivals/s (${source}), ${mixSpec}, ${warmupSeconds} s + ${minutes} min`,
  );

  const batch = randomUUID(); // the workspace_id of this case's baseline rows
  const conn = ctx.orm.em.fork().getConnection();
  const seed = await expectStatus(201, `${ctx.apiUrl}/v1/runs`, {
    headers: { authorization: ctx.pool.next() },
    json: { agentId: ctx.echoAgentId, input: { text: 'soak' } },
  });
  await waitForTerminal(ctx.apiUrl, seed.id, { authorization: ctx.pool.next() });

  const logs: Record<BaseOp, OpLog> = { start: new OpLog(), run: new OpLog(), read: new OpLog() };
  const due = new Map<string, number>();
  const startRun = async (dueAt: number) => {
    const runId = randomUUID();
    due.set(runId, dueAt);
    await conn.execute(`insert into bench_baseline_runs (id, workspace_id, input) values (?, ?, '{"text":"soak"}')`, [
      runId,
      batch,
    ]);
    await ctx.client.workflow.start<typeof bareDurableRunWorkflow>('bareDurableRunWorkflow', {
      taskQueue: ctx.bareQueue,
      workflowId: `bare-soak-run-${runId}`,
      args: [runId],
    });
    logs.start.add(dueAt, nowMs() - dueAt);
  };
  const read = async (dueAt: number) => {
    const res = await request(`${ctx.baselineUrl}/runs/${seed.id}`);
    if (res.status !== 200) return logs.read.fail(dueAt, new Error(`GET /runs/:id → ${res.status}`));
    logs.read.add(dueAt, nowMs() - dueAt);
  };
  const loop = await openLoop({
    rate,
    seconds,
    operation: (k, dueAt) => {
      const kind = mix[k % mix.length];
      const op = kind === 'read' ? read(dueAt) : startRun(dueAt);
      return op.catch((err) => logs[kind === 'read' ? 'read' : 'start'].fail(dueAt, err));
    },
  });

  // How far behind the runs were when the arrivals stopped, and how long they took to catch up.
  const pending = async () =>
    Number(
      (
        await conn.execute<Array<{ n: string }>>(
          `select count(*) as n from bench_baseline_runs where workspace_id = ? and completed_at is null`,
          [batch],
        )
      )[0].n,
    );
  const backlogAtEnd = await pending();
  const drainStarted = Date.now();
  let backlog = backlogAtEnd;
  while (backlog > 0 && Date.now() - drainStarted < drainSeconds * 1000) {
    await sleep(1000);
    backlog = await pending();
  }
  const drainMs = backlog === 0 ? Date.now() - drainStarted : NaN;
  const rows = await conn.execute<Array<{ id: string; completed_at: Date | null }>>(
    `select id, completed_at from bench_baseline_runs where workspace_id = ?`,
    [batch],
  );
  for (const row of rows) {
    const dueAt = due.get(row.id);
    if (dueAt === undefined) continue;
    if (row.completed_at) logs.run.add(dueAt, new Date(row.completed_at).getTime() - dueAt);
    else logs.run.fail(dueAt, new Error(`bare run ${row.id} not done ${drainSeconds} s after the load`));
  }

  const measuredFrom = loop.startedAt + warmupSeconds * 1000;
  const windowMs = Math.min(60_000, (loop.endedAt - measuredFrom) / 2);
  const ops = (Object.keys(logs) as BaseOp[]).map((op) => ({
    op,
    first: logs[op].window(measuredFrom, measuredFrom + windowMs),
    last: logs[op].window(loop.endedAt - windowMs, loop.endedAt),
    errors: logs[op].errors,
    firstErrors: logs[op].firstErrors.map((e) => e.message),
  }));
  const runRate = (rate * mix.filter((k) => k !== 'read').length) / mix.length;
  const markdown = [
    `### 10b. The soak's load without the service: ${minutes} min at ${fmt(rate)} arrivals/s (${fmt(runRate)} runs/s)`,
    '',
    `Rate: ${source}${createRps ? ` (create ${fmt(createRps)} /s)` : ''}. Every run arrival is a bare durable run, every read the bare \`select\`. ` +
      `Runs not done when the arrivals stopped: ${backlogAtEnd}; ${Number.isFinite(drainMs) ? `caught up ${fmt(drainMs / 1000)} s later` : `still ${backlog} after ${drainSeconds} s`}.`,
    '',
    table(
      ['operation', 'first n', 'p50 ms', 'p99 ms', 'last n', 'p50 ms', 'p99 ms', 'p99 last/first', 'errors'],
      ops.map((o) => [
        LABELS[o.op],
        o.first.count,
        o.first.p50,
        o.first.p99,
        o.last.count,
        o.last.p50,
        o.last.p99,
        `${fmt(o.last.p99 / o.first.p99, 2)}×`,
        o.errors,
      ]),
    ),
  ].join('\n');
  return {
    title: 'soakbase',
    markdown,
    data: {
      settings: { minutes, warmupSeconds, rate, rateSource: source, createRps, mix: mixSpec, runRate },
      generator: { fired: loop.fired, maxLagMs: loop.maxLagMs, maxInFlight: loop.maxInFlight },
      backlogAtEnd,
      drainMs,
      operations: ops,
    },
  };
}
