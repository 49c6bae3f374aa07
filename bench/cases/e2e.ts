import { randomUUID } from 'node:crypto';
import { expectStatus, waitForTerminal } from '../../test/helpers/live/http';
import { closedLoop } from '../lib/load';
import { COMPARISON_HEADERS, comparisonRows, ratio, table, type Summary } from '../lib/stats';
import type { BenchContext, CaseResult } from '../lib/context';
import type { bareDurableRunWorkflow, bareRunWorkflow } from '../baseline/workflows';

/**
 * An echo run is startRun, modelTurn and finishRun: the bare workflow runs three activities. The service
 * runs the three as local activities in one workflow task (its model does no I/O; a provider's turn stays an
 * activity: docs/api/runs.md), which is why it can beat the bare workflow; the baseline is left as the
 * issue set it, a workflow with the run's three steps as ordinary activities.
 */
export const ECHO_RUN_ACTIVITIES = 3;

/**
 * Case 2: a `builtin/echo` run end to end as a client sees it (POST /v1/runs, then its event stream
 * until `succeeded`), against a bare workflow with the same three activities started and awaited
 * with the Temporal client. Twice: one client at a time (latency without queueing) and
 * `ctx.concurrency` clients (throughput), the same number of virtual users on both sides.
 */
export async function e2eCase(ctx: BenchContext): Promise<CaseResult> {
  await ctx.pool.ensure(2 * 1000 * 2 * (ctx.seconds + ctx.warmupSeconds));
  /** `operation` repeated by `concurrency` virtual users for the case's window. */
  const loop = (operation: () => Promise<void>) => (concurrency: number) =>
    closedLoop({ concurrency, seconds: ctx.seconds, warmupSeconds: ctx.warmupSeconds, operation });
  const service = loop(async () => {
    const run = await expectStatus(201, `${ctx.apiUrl}/v1/runs`, {
      headers: { authorization: ctx.pool.next() },
      json: { agentId: ctx.echoAgentId, input: { text: 'hello' } },
    });
    const done = await waitForTerminal(ctx.apiUrl, run.id, { authorization: ctx.pool.next() });
    if (done.status !== 'succeeded') throw new Error(`run ${run.id} ended ${done.status}`);
  });
  const baseline = loop(async () => {
    const handle = await ctx.client.workflow.start<typeof bareRunWorkflow>('bareRunWorkflow', {
      taskQueue: ctx.bareQueue,
      workflowId: `bare-run-${randomUUID()}`,
      args: [ECHO_RUN_ACTIVITIES],
    });
    await handle.result();
  });
  // The necessary work: the run's row committed before the start, and each activity one durable commit.
  const conn = ctx.orm.em.fork().getConnection();
  const durable = loop(async () => {
    const runId = randomUUID();
    await conn.execute(`insert into bench_baseline_runs (id, workspace_id, input) values (?, ?, '{"text":"hello"}')`, [
      runId,
      runId,
    ]);
    const handle = await ctx.client.workflow.start<typeof bareDurableRunWorkflow>('bareDurableRunWorkflow', {
      taskQueue: ctx.bareQueue,
      workflowId: `bare-durable-run-${runId}`,
      args: [runId],
    });
    await handle.result();
  });

  const levels: Array<{ concurrency: number; service: Summary; baseline: Summary; durable: Summary }> = [];
  for (const concurrency of [1, ctx.concurrency]) {
    levels.push({
      concurrency,
      service: await service(concurrency),
      baseline: await baseline(concurrency),
      durable: await durable(concurrency),
    });
  }
  const markdown = [
    `### 2. End-to-end \`builtin/echo\` run (${ctx.seconds} s each)`,
    '',
    'service = `POST /v1/runs` → `succeeded` seen on `GET /v1/runs/{id}/events`; baseline = Temporal client starts a bare workflow with the same 3 activities and awaits its result.',
    ...levels.flatMap((l) => [
      '',
      `${l.concurrency === 1 ? 'One client at a time (latency)' : `${l.concurrency} concurrent clients (throughput)`}:`,
      '',
      table(COMPARISON_HEADERS, comparisonRows(l.service, l.baseline)),
      '',
      'Against the necessary work (the run inserted in one commit before the start, each of the 3 activities one durable commit):',
      '',
      table(COMPARISON_HEADERS, comparisonRows(l.service, l.durable)),
    ]),
  ].join('\n');
  return {
    title: 'e2e',
    markdown,
    data: {
      levels: levels.map((l) => ({
        ...l,
        ratio: { throughput: ratio(l.service.rps, l.baseline.rps), p50: ratio(l.service.p50, l.baseline.p50) },
        ratioToDurable: { throughput: ratio(l.service.rps, l.durable.rps), p50: ratio(l.service.p50, l.durable.p50) },
      })),
    },
  };
}
