import { retentionDaysByPlan } from '../../domain/retention/policy';
import { purgeBatchStatement, purgeExpired } from '../../domain/retention/purge';
import { encodeCursor } from '../../domain/shared/pagination';
import { createAgent, createWorkspace, KeyPool } from '../../test/helpers/live/accounts';
import { expectStatus } from '../../test/helpers/live/http';
import type { BenchContext, CaseResult } from '../lib/context';
import { fmt, percentile, table } from '../lib/stats';

/**
 * Case 11 (opt-in, `BENCH_CASES=big-tables`): do list pages and retention batches stay flat as the large tables
 * grow? The three largest tables (runs, run_events, webhook_deliveries) are seeded with `generate_series`, one
 * statement per table, to BENCH_BIG_SIZES rows in all (default 100k, then afresh 10M): a tenth runs, six events and
 * three deliveries a run, over 100 workspaces of mixed plans, `created_at` spread over 90 days in insertion order. One workspace is a real
 * one (signed up through the API, with a subscription): its pages are read through the API. At each size:
 * (a) p50 of sequential requests of each list page, (b) p50 of one retention batch (the sweep's own function,
 * domain/retention/purge.ts, stopped after BATCHES batches), (c) the plan of every statement (EXPLAIN).
 */

const RUN_SHARE = 0.1;
const EVENTS_PER_RUN = 6;
const DELIVERIES_PER_RUN = 3;
const WORKSPACES = 100;
const REQUESTS = Number(process.env.BENCH_BIG_REQUESTS ?? 100);
const BATCHES = Number(process.env.BENCH_BIG_BATCHES ?? 20);
const BATCH_SIZE = 1000;
const sizes = () => (process.env.BENCH_BIG_SIZES ?? '100000,10000000').split(',').map(Number);

/** Thrown from the sweep's batch callback to stop it after BATCHES batches. */
class EnoughBatches extends Error {}

interface Seeded {
  workspaceIds: string[];
  agentId: string;
  subscriptionId: string;
}

/**
 * Replaces the seeded rows with `runs` runs and their events and deliveries, in three statements. Rows go in
 * in time order, as an append-only table's do (the heap's order is `created_at`'s, and the oldest rows a sweep
 * deletes sit together), over the last 90 days.
 */
async function seed(ctx: BenchContext, s: Seeded, runs: number): Promise<Record<string, number>> {
  const conn = ctx.orm.em.fork().getConnection();
  const mark = JSON.stringify({ bigTables: true });
  // the previous size's rows (their events go with their runs)
  await conn.execute(`delete from webhook_deliveries where event_key like 'seed-%'`);
  await conn.execute('delete from runs where metadata @> ?::jsonb', [mark]);
  const timed = async (sql: string, params: unknown[]) => {
    const t0 = performance.now();
    await conn.execute(sql, params);
    return Math.round((performance.now() - t0) / 1000);
  };
  // cut to milliseconds: a keyset cursor carries milliseconds (bench/cases/read.ts)
  const runsSeconds = await timed(
    `insert into runs (id, created_at, updated_at, workspace_id, agent_id, agent_version, status, input, output,
       metadata, input_tokens, output_tokens, cost_micros, started_at, completed_at, origin)
     select gen_random_uuid(), t, t, (?::uuid[])[1 + g % ?], ?, 1, 'succeeded', '{"text":"seed"}'::jsonb,
       '{"echo":{"text":"seed"}}'::jsonb, ?::jsonb, 3, 5, 1000, t, t, 'temporal'
     from (select g, date_trunc('milliseconds', now() - interval '90 days' * (1 - g::float8 / ?)
                                                 - random() * interval '1 minute') as t
             from generate_series(1, ?::int) g) s`,
    [`{${s.workspaceIds.join(',')}}`, WORKSPACES, s.agentId, mark, runs, runs],
  );
  // Both below read the runs in their heap's (time) order, each run's rows together: the series names the run
  // so that it is read once per run (lateral), not the runs once per element of the series.
  const eventsSeconds = await timed(
    `insert into run_events (run_id, type, data, created_at)
     select r.id, case when k in (1, 2, ${EVENTS_PER_RUN}) then 'run.status' else 'run.step' end,
       jsonb_build_object('status', case k when 1 then 'queued' when ${EVENTS_PER_RUN} then 'succeeded' else 'running' end,
         'step', k, 'run', jsonb_build_object('id', r.id, 'agentId', r.agent_id, 'input', r.input, 'createdAt', r.created_at)),
       r.created_at + k * interval '1 second'
     from runs r cross join lateral generate_series(1, ${EVENTS_PER_RUN} + 0 * r.agent_version) k
     where r.metadata @> ?::jsonb`,
    [mark],
  );
  const deliveriesSeconds = await timed(
    `insert into webhook_deliveries (id, created_at, updated_at, subscription_id, workspace_id, run_id, type,
       event_key, event_id, body, status, attempts, round)
     select gen_random_uuid(), r.created_at + k * interval '2 seconds', r.created_at + k * interval '2 seconds',
       case when r.workspace_id = ? then ?::uuid else md5(r.workspace_id::text)::uuid end, r.workspace_id, r.id,
       'run.succeeded', 'seed-' || k, null, jsonb_build_object('type', 'run.succeeded', 'run', r.id)::text,
       'succeeded', '[{"attempt":1,"status":200,"durationMs":12}]'::jsonb, 0
     from runs r cross join lateral generate_series(1, ${DELIVERIES_PER_RUN} + 0 * r.agent_version) k
     where r.metadata @> ?::jsonb`,
    [s.workspaceIds[0], s.subscriptionId, mark],
  );
  const t0 = performance.now();
  // as autovacuum would have by then: statistics and the visibility map
  await conn.execute('vacuum analyze runs, run_events, webhook_deliveries');
  return {
    runsSeconds,
    eventsSeconds,
    deliveriesSeconds,
    vacuumSeconds: Math.round((performance.now() - t0) / 1000),
  };
}

/** p50 (ms) of REQUESTS sequential calls of `fn`, after 10 thrown away. */
async function p50Of(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 10; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}

/**
 * The plan's nodes, outermost first, each with its index; `seqScan` when any node reads a whole table; `buffers`,
 * the pages the statement touched (shared hits and reads): its work, which unlike its time a busy machine does
 * not bend.
 */
function planSummary(plan: Record<string, unknown>): { nodes: string; seqScan: boolean; buffers: number } {
  const nodes: string[] = [];
  const walk = (node: Record<string, unknown>) => {
    const index = node['Index Name'] ? ` ${String(node['Index Name'])}` : '';
    const relation = !index && node['Relation Name'] ? ` ${String(node['Relation Name'])}` : '';
    nodes.push(`${String(node['Node Type'])}${index}${relation}`);
    for (const child of (node.Plans as Array<Record<string, unknown>> | undefined) ?? []) walk(child);
  };
  walk(plan);
  const buffers = Number(plan['Shared Hit Blocks'] ?? 0) + Number(plan['Shared Read Blocks'] ?? 0);
  return { nodes: nodes.join(' › '), seqScan: nodes.some((n) => n.startsWith('Seq Scan')), buffers };
}

/** Runs the statement under EXPLAIN ANALYZE (a retention batch's is one more batch, deleted). */
async function explain(ctx: BenchContext, sql: string, params: unknown[]) {
  const rows: Array<{ 'QUERY PLAN': Array<{ Plan: Record<string, unknown> }> }> = await ctx.orm.em
    .fork()
    .getConnection()
    .execute(`explain (analyze, buffers, format json) ${sql}`, params);
  return planSummary(rows[0]['QUERY PLAN'][0].Plan);
}

/** The keyset cursor of the row at `offset` of `sql`'s order (newest first). */
async function cursorAt(ctx: BenchContext, sql: string, params: unknown[]): Promise<string> {
  const rows: Array<{ created_at: Date; id: string }> = await ctx.orm.em.fork().getConnection().execute(sql, params);
  return encodeCursor({ createdAt: new Date(rows[0].created_at), id: rows[0].id });
}

/** One retention batch's p50 (ms) and rows deleted a batch, over the first BATCHES batches of a sweep. */
async function retentionBatches(ctx: BenchContext, table: 'run_events' | 'webhook_deliveries') {
  const times: number[] = [];
  let last = performance.now();
  let deleted = 0;
  try {
    await purgeExpired(ctx.orm.em.fork(), table, {
      daysByPlan: retentionDaysByPlan(),
      batchSize: BATCH_SIZE,
      onBatch: (soFar) => {
        const now = performance.now();
        times.push(now - last);
        last = now;
        deleted = soFar;
        if (times.length >= BATCHES) throw new EnoughBatches();
      },
    });
  } catch (err) {
    if (!(err instanceof EnoughBatches)) throw err;
  }
  return {
    p50: percentile(
      [...times].sort((a, b) => a - b),
      50,
    ),
    deletedPerBatch: deleted / times.length,
  };
}

async function measure(ctx: BenchContext, s: Seeded, auth: () => Record<string, string>, total: number) {
  const conn = ctx.orm.em.fork().getConnection();
  const ws = s.workspaceIds[0];
  const [{ n: wsRuns }] = await conn.execute<Array<{ n: number }>>(
    'select count(*)::int as n from runs where workspace_id = ?',
    [ws],
  );
  const runsOrder = 'from runs where workspace_id = ? order by created_at desc, id desc';
  const runsCursor = await cursorAt(ctx, `select created_at, id ${runsOrder} offset ? limit 1`, [
    ws,
    Math.floor(wsRuns / 2),
  ]);
  const deliveriesOrder = 'from webhook_deliveries where subscription_id = ? order by created_at desc, id desc';
  const [{ n: subDeliveries }] = await conn.execute<Array<{ n: number }>>(
    'select count(*)::int as n from webhook_deliveries where subscription_id = ?',
    [s.subscriptionId],
  );
  const deliveriesCursor = await cursorAt(ctx, `select created_at, id ${deliveriesOrder} offset ? limit 1`, [
    s.subscriptionId,
    Math.floor(subDeliveries / 2),
  ]);
  const [{ id: runId }] = await conn.execute<Array<{ id: string }>>(`select id ${runsOrder} offset ? limit 1`, [
    ws,
    Math.floor(wsRuns / 2),
  ]);
  const get = (path: string) => () => expectStatus(200, `${ctx.apiUrl}${path}`, { headers: auth() });
  let eventsSeen = 0;
  const events = async () => {
    const res = await fetch(`${ctx.apiUrl}/v1/runs/${runId}/events`, {
      headers: { ...auth(), accept: 'text/event-stream' },
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`events: ${res.status} ${text}`);
    eventsSeen = text.split('\nevent: ').length - 1;
  };
  const deliveriesPath = `/v1/webhooks/${s.subscriptionId}/deliveries?limit=20`;
  const pages = {
    'runs, first page': await p50Of(get('/v1/runs?limit=20')),
    'runs, middle page': await p50Of(get(`/v1/runs?limit=20&cursor=${runsCursor}`)),
    "a run's events": await p50Of(events),
    'deliveries, first page': await p50Of(get(deliveriesPath)),
    'deliveries, middle page': await p50Of(get(`${deliveriesPath}&cursor=${deliveriesCursor}`)),
  };
  const [cursorTime, cursorId] = runsCursor.split('_');
  const [dTime, dId] = deliveriesCursor.split('_');
  const plans = {
    'runs, middle page': await explain(
      ctx,
      `select * from runs where workspace_id = ? and (created_at, id) < (?, ?) order by created_at desc, id desc limit 21`,
      [ws, new Date(Number(cursorTime)).toISOString(), cursorId],
    ),
    "a run's events": await explain(
      ctx,
      'select seq, type, data from run_events where run_id = ? and seq > ? order by seq limit 500',
      [runId, 0],
    ),
    'deliveries, middle page': await explain(
      ctx,
      `select * from webhook_deliveries where subscription_id = ? and (created_at, id) < (?, ?)
        order by created_at desc, id desc limit 21`,
      [s.subscriptionId, new Date(Number(dTime)).toISOString(), dId],
    ),
    'retention batch, run_events': await (async () => {
      const { sql, params } = purgeBatchStatement('run_events', retentionDaysByPlan(), BATCH_SIZE);
      return explain(ctx, sql, params);
    })(),
    'retention batch, webhook_deliveries': await (async () => {
      const { sql, params } = purgeBatchStatement('webhook_deliveries', retentionDaysByPlan(), BATCH_SIZE);
      return explain(ctx, sql, params);
    })(),
  };
  const retention = {
    run_events: await retentionBatches(ctx, 'run_events'),
    webhook_deliveries: await retentionBatches(ctx, 'webhook_deliveries'),
  };
  const [{ bytes }] = await conn.execute<Array<{ bytes: string }>>(
    `select (pg_total_relation_size('runs') + pg_total_relation_size('run_events')
             + pg_total_relation_size('webhook_deliveries'))::text as bytes`,
  );
  return {
    total,
    workspaceRuns: wsRuns,
    subscriptionDeliveries: subDeliveries,
    eventsSeen,
    pages,
    plans,
    retention,
    bytes: Number(bytes),
  };
}

export async function bigTablesCase(ctx: BenchContext): Promise<CaseResult> {
  const account = await createWorkspace(ctx.apiUrl, ctx.orm);
  const pool = new KeyPool(ctx.orm, account.id);
  await pool.ensure(20);
  const auth = () => ({ authorization: pool.next() });
  const agentId = await createAgent(ctx.apiUrl, pool.next());
  const sub = await expectStatus(201, `${ctx.apiUrl}/v1/webhooks`, {
    headers: auth(),
    json: { url: 'http://127.0.0.1:9/never', events: ['run.succeeded'], secret: 'bench-secret-0123456789' },
  });
  const conn = ctx.orm.em.fork().getConnection();
  const others: Array<{ id: string }> = await conn.execute(
    `insert into workspaces (id, created_at, updated_at, name, plan, credit_balance_micros)
     select gen_random_uuid(), now(), now(), 'bench big ' || g,
            (array['free_trial', 'starter', 'business', 'scale'])[1 + g % 4], 0
       from generate_series(1, ?::int) g returning id`,
    [WORKSPACES - 1],
  );
  const seeded: Seeded = { workspaceIds: [account.id, ...others.map((o) => o.id)], agentId, subscriptionId: sub.id };

  const levels: Array<Awaited<ReturnType<typeof measure>> & { seeding: Record<string, number> }> = [];
  for (const size of sizes()) {
    console.error(`[bench] big-tables: seeding ${size} rows`);
    const seeding = await seed(ctx, seeded, Math.round(size * RUN_SHARE));
    console.error(`[bench] big-tables: seeded ${JSON.stringify(seeding)}; measuring`);
    levels.push({ ...(await measure(ctx, seeded, auth, size)), seeding });
  }

  const first = levels[0];
  const lastLevel = levels[levels.length - 1];
  const ratioOf = (a: number, b: number) => (a > 0 ? b / a : NaN);
  const pageRows = Object.keys(first.pages).map((name) => {
    const key = name as keyof typeof first.pages;
    return [
      name,
      ...levels.map((l) => fmt(l.pages[key], 2)),
      `${fmt(ratioOf(first.pages[key], lastLevel.pages[key]), 2)}×`,
    ];
  });
  const retentionRows = (['run_events', 'webhook_deliveries'] as const).map((t) => [
    `retention batch of ${BATCH_SIZE}, ${t}`,
    ...levels.map((l) => `${fmt(l.retention[t].p50, 2)} (${Math.round(l.retention[t].deletedPerBatch)} deleted)`),
    `${fmt(ratioOf(first.retention[t].p50, lastLevel.retention[t].p50), 2)}×`,
  ]);
  const planRows = Object.keys(lastLevel.plans).map((name) => {
    const key = name as keyof typeof lastLevel.plans;
    const plan = lastLevel.plans[key];
    return [
      name,
      plan.seqScan ? 'yes' : 'no',
      levels.map((l) => l.plans[key].buffers).join(' → '),
      `\`${plan.nodes}\``,
    ];
  });
  const headers = ['p50 ms', ...levels.map((l) => `${l.total.toLocaleString('en')} rows`), 'last ÷ first'];
  const markdown = [
    `### 11. Large tables (${levels.map((l) => l.total.toLocaleString('en')).join(' → ')} rows; runs, run_events, webhook_deliveries)`,
    '',
    `The measured workspace holds ${levels.map((l) => l.workspaceRuns).join(' → ')} runs, its subscription ${levels.map((l) => l.subscriptionDeliveries).join(' → ')} deliveries; tables ${levels.map((l) => `${fmt(l.bytes / 2 ** 30, 2)} GiB`).join(' → ')} on disk. ${REQUESTS} sequential requests a page.`,
    '',
    table(headers, [...pageRows, ...retentionRows]),
    '',
    `Plans at ${lastLevel.total.toLocaleString('en')} rows:`,
    '',
    table(['statement', 'seq scan', 'pages touched at each size', 'plan'], planRows),
  ].join('\n');
  return { title: 'big-tables', markdown, data: { levels } };
}
