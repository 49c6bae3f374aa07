import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { expectStatus, RunEventStream, type SseEvent } from '../../test/helpers/live/http';
import { closedLoop } from '../lib/load';
import { COMPARISON_HEADERS, comparisonRows, ratio, table } from '../lib/stats';
import type { BenchContext, CaseResult } from '../lib/context';
import { answerUpdate, askedUpdate, type bareGateWorkflow } from '../baseline/workflows';

/** Questions per run; a virtual user starts a new run when its run has asked them all. */
const ROUNDS = 20;

const status = (s: string) => (e: SseEvent) => e.event === 'run.status' && e.data?.status === s;

interface ServiceUser {
  runId: string;
  stream: RunEventStream;
  round: number;
}

/**
 * Case 3: the human gate. Timed: `POST /v1/runs/{id}/input` until the run's event stream shows
 * `running` again. Not timed: waiting for the next `needs_input`. Baseline: a bare workflow with
 * the same activities around its gate, answered by a Temporal Update that completes when the
 * workflow is running again.
 */
export async function gateCase(ctx: BenchContext): Promise<CaseResult> {
  await ctx.pool.ensure(3 * 200 * (ctx.seconds + ctx.warmupSeconds));
  const script = [
    ...Array.from({ length: ROUNDS }, (_, i) => ({ ask: `question ${i + 1}?` })),
    { final: { ok: true } },
  ];
  const users: Array<ServiceUser | undefined> = [];

  async function newRun(): Promise<ServiceUser> {
    const run = await expectStatus(201, `${ctx.apiUrl}/v1/runs`, {
      headers: { authorization: ctx.pool.next() },
      json: { agentId: ctx.scriptedAgentId, input: { script } },
    });
    const stream = await RunEventStream.open(ctx.apiUrl, run.id, { authorization: ctx.pool.next() });
    await stream.next(status('needs_input'));
    return { runId: run.id, stream, round: 0 };
  }

  const service = await closedLoop({
    concurrency: ctx.concurrency,
    seconds: ctx.seconds,
    warmupSeconds: ctx.warmupSeconds,
    operation: async (i) => {
      let user = users[i];
      if (!user || user.round >= ROUNDS) {
        user?.stream.close();
        user = users[i] = await newRun();
      }
      try {
        user.round++;
        const t0 = performance.now();
        await expectStatus(202, `${ctx.apiUrl}/v1/runs/${user.runId}/input`, {
          headers: { authorization: ctx.pool.next() },
          json: { answer: user.round },
        });
        await user.stream.next(status('running'));
        const latency = performance.now() - t0;
        await user.stream.next(status(user.round < ROUNDS ? 'needs_input' : 'succeeded'));
        return latency;
      } catch (err) {
        // start over with a fresh run rather than answer a question that may not be pending
        user.stream.close();
        users[i] = undefined;
        throw err;
      }
    },
  });
  for (const u of users) u?.stream.close();

  const handles: Array<{ handle: WorkflowHandle<typeof bareGateWorkflow>; round: number } | undefined> = [];
  const baseline = await closedLoop({
    concurrency: ctx.concurrency,
    seconds: ctx.seconds,
    warmupSeconds: ctx.warmupSeconds,
    operation: async (i) => {
      let user = handles[i];
      if (!user || user.round >= ROUNDS) {
        const handle = await ctx.client.workflow.start<typeof bareGateWorkflow>('bareGateWorkflow', {
          taskQueue: ctx.bareQueue,
          workflowId: `bare-gate-${randomUUID()}`,
          args: [ROUNDS],
        });
        user = handles[i] = { handle, round: 0 };
      }
      try {
        user.round++;
        const t0 = performance.now();
        await user.handle.executeUpdate(answerUpdate, { args: [user.round] });
        const latency = performance.now() - t0;
        if (user.round < ROUNDS) await user.handle.executeUpdate(askedUpdate, { args: [user.round + 1] });
        return latency;
      } catch (err) {
        handles[i] = undefined;
        throw err;
      }
    },
  });

  const markdown = [
    `### 3. Human-gate round trip (${ctx.concurrency} concurrent runs, ${ctx.seconds} s each)`,
    '',
    'service = `POST /v1/runs/{id}/input` → `run.status: running` on the run’s event stream; baseline = Temporal Update on a bare workflow that returns once the same two activities after the gate are done.',
    '',
    table(COMPARISON_HEADERS, comparisonRows(service, baseline)),
  ].join('\n');
  return {
    title: 'gate',
    markdown,
    data: {
      service,
      baseline,
      ratio: { p50: ratio(service.p50, baseline.p50), p99: ratio(service.p99, baseline.p99) },
    },
  };
}
