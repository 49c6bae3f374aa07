import { measureHttpInTurns } from '../lib/load';
import { COMPARISON_HEADERS, comparisonRows, ratio, table } from '../lib/stats';
import type { BenchContext, CaseResult } from '../lib/context';

/** The rounds in which the service and its two baselines take turns, `ctx.seconds` in all for each. */
const ROUNDS = 5;

/**
 * Case 1: `POST /v1/runs` against starting the same workflow with the Temporal client (the bare
 * server's `POST /start` makes exactly the API's `startRunWorkflow` call). Both sides start their
 * workflows on a task queue no worker polls, so the case measures admission alone: what the API adds
 * (key lookup, rate-limit counter, validation, agent and credit checks, the run row and its event) to
 * the Temporal start both pay.
 */
export async function createCase(ctx: BenchContext): Promise<CaseResult> {
  const body = JSON.stringify({ agentId: ctx.echoAgentId, input: { text: 'hello' } });
  await ctx.pool.ensure(4000 * (ctx.seconds + ctx.warmupSeconds));
  const shared = { method: 'POST' as const, body, connections: ctx.connections, seconds: ctx.seconds };
  // Taken in turns, so the service and its baselines share the machine's slow and fast stretches.
  const [service, baseline, durable] = await measureHttpInTurns(
    [
      {
        ...shared,
        url: `${ctx.admissionUrl}/v1/runs`,
        perRequestHeaders: () => ({ authorization: ctx.pool.next() }),
        warmupSeconds: ctx.warmupSeconds,
      },
      { ...shared, url: `${ctx.baselineUrl}/start`, warmupSeconds: ctx.warmupSeconds },
      // The second baseline: the work a create cannot avoid (one durable commit of the run, then the start).
      { ...shared, url: `${ctx.baselineUrl}/start-durable`, warmupSeconds: ctx.warmupSeconds },
    ],
    ROUNDS,
  );
  const markdown = [
    `### 1. Create-run throughput and latency (${ctx.connections} connections, ${ctx.seconds} s each, in ${ROUNDS} rounds taken in turns)`,
    '',
    'service = `POST /v1/runs` with an API key; baseline = bare Koa route → `client.workflow.start` of the same workflow.',
    '',
    table(COMPARISON_HEADERS, comparisonRows(service, baseline)),
    '',
    `Statuses: service ${JSON.stringify(service.statuses)}, baseline ${JSON.stringify(baseline.statuses)}.`,
    '',
    'The same against a bare Koa route that does the necessary work: the run recorded in one durable commit (one `insert` through `pg`), then the same start:',
    '',
    table(COMPARISON_HEADERS, comparisonRows(service, durable)),
  ].join('\n');
  return {
    title: 'create',
    markdown,
    data: {
      service,
      baseline,
      ratio: { throughput: ratio(service.rps, baseline.rps), p50: ratio(service.p50, baseline.p50) },
      durableBaseline: durable,
      ratioToDurable: { throughput: ratio(service.rps, durable.rps), p50: ratio(service.p50, durable.p50) },
    },
  };
}
