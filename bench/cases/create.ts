import { measureHttp } from '../lib/load';
import { COMPARISON_HEADERS, comparisonRows, ratio, table } from '../lib/stats';
import type { BenchContext, CaseResult } from '../lib/context';

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
  const service = await measureHttp({
    url: `${ctx.admissionUrl}/v1/runs`,
    method: 'POST',
    body,
    perRequestHeaders: () => ({ authorization: ctx.pool.next() }),
    connections: ctx.connections,
    seconds: ctx.seconds,
    warmupSeconds: ctx.warmupSeconds,
  });
  const baseline = await measureHttp({
    url: `${ctx.baselineUrl}/start`,
    method: 'POST',
    body,
    connections: ctx.connections,
    seconds: ctx.seconds,
    warmupSeconds: ctx.warmupSeconds,
  });
  // The second baseline: the work a create cannot avoid (one durable commit of the run, then the start).
  const durable = await measureHttp({
    url: `${ctx.baselineUrl}/start-durable`,
    method: 'POST',
    body,
    connections: ctx.connections,
    seconds: ctx.seconds,
    warmupSeconds: ctx.warmupSeconds,
  });
  const markdown = [
    `### 1. Create-run throughput and latency (${ctx.connections} connections, ${ctx.seconds} s each)`,
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
