import { encodeCursor } from '../../domain/shared/pagination';
import { createAgent, createWorkspace, KeyPool } from '../../test/helpers/live/accounts';
import { expectStatus, waitForTerminal } from '../../test/helpers/live/http';
import { measureHttp, measureHttpInTurns } from '../lib/load';
import { COMPARISON_HEADERS, comparisonRows, fmt, ratio, table } from '../lib/stats';
import type { BenchContext, CaseResult } from '../lib/context';

const SIZES = [1_000, 10_000, 100_000];
/**
 * The GET rate the key pool is sized for: above the bare `select` route's, so the pool never runs dry while
 * the service keeps up (a spent key's requests are answered 429 and counted as errors, not reads).
 */
const MAX_GET_RATE = 20_000;
/** The rounds in which the list pages take turns, `ctx.seconds` in all for each (as case 1's). */
const LIST_ROUNDS = 5;

/**
 * Adds runs `from..to` (1-based) to the workspace in one statement, each a second older than the
 * previous. `created_at` is cut to milliseconds: keyset cursors carry milliseconds, so a row with
 * microseconds would compare unequal to its own cursor.
 */
async function seedRuns(ctx: BenchContext, workspaceId: string, agentId: string, from: number, to: number) {
  const conn = ctx.orm.em.fork().getConnection();
  await conn.execute(
    `insert into runs (id, created_at, updated_at, workspace_id, agent_id, agent_version, status, input, output,
       metadata, input_tokens, output_tokens, cost_micros, started_at, completed_at, origin)
     select gen_random_uuid(), t, t, ?, ?, 1, 'succeeded', '{"text":"seed"}'::jsonb,
       '{"echo":{"text":"seed"}}'::jsonb, '{}'::jsonb, 3, 5, 1000, t, t, 'temporal'
     from (select date_trunc('milliseconds', now() - interval '1 hour' - g * interval '1 second'
                  - random() * interval '900 milliseconds') as t
           from generate_series(?::int, ?::int) g) s`,
    [workspaceId, agentId, from, to],
  );
  await conn.execute('analyze runs');
}

/** The cursor of the row at `offset` in the list order (newest first). */
async function cursorAt(ctx: BenchContext, workspaceId: string, offset: number): Promise<string> {
  const rows: Array<{ created_at: Date; id: string }> = await ctx.orm.em
    .fork()
    .getConnection()
    .execute(
      `select created_at, id from runs where workspace_id = ? order by created_at desc, id desc offset ? limit 1`,
      [workspaceId, offset],
    );
  return encodeCursor({ createdAt: new Date(rows[0].created_at), id: rows[0].id });
}

/**
 * Case 4: `GET /v1/runs/{id}` with an API key against a bare Koa route that does nothing and against one
 * that does only the read's necessary work (one `select` of the run row through `pg`), then
 * `GET /v1/runs` (page of 20) in three workspaces of 1k, 10k and 100k runs (one table): the first page and
 * a page from the middle (by cursor), taken in turns, to show that keyset pagination costs the same at any size.
 */
export async function readCase(ctx: BenchContext): Promise<CaseResult> {
  const http = { connections: ctx.connections, seconds: ctx.seconds, warmupSeconds: ctx.warmupSeconds };
  const run = await expectStatus(201, `${ctx.apiUrl}/v1/runs`, {
    headers: { authorization: ctx.pool.next() },
    json: { agentId: ctx.echoAgentId, input: { text: 'read me' } },
  });
  await waitForTerminal(ctx.apiUrl, run.id, { authorization: ctx.pool.next() });
  await ctx.pool.ensure(MAX_GET_RATE * (ctx.seconds + ctx.warmupSeconds));
  const getService = await measureHttp({
    ...http,
    url: `${ctx.apiUrl}/v1/runs/${run.id}`,
    perRequestHeaders: () => ({ authorization: ctx.pool.next() }),
  });
  const getBaseline = await measureHttp({ ...http, url: `${ctx.baselineUrl}/noop` });
  // the second baseline: the one select of the run row through pg, the work the read cannot avoid
  const getSelect = await measureHttp({ ...http, url: `${ctx.baselineUrl}/runs/${run.id}` });

  // The list workspaces, one of each size, all seeded before any is measured: their pages are then read in
  // turns (measureHttpInTurns), so every size gets the same mix of the machine's fast and slow stretches.
  // Measured one after the other, as the workspace grew, the 1k pages came out slower than the 100k ones in
  // some runs and faster in others by up to a quarter (bench/README.md, list pages).
  const workspaces: Array<{ size: number; id: string; pool: KeyPool }> = [];
  for (const size of SIZES) {
    const ws = await createWorkspace(ctx.apiUrl, ctx.orm);
    const pool = new KeyPool(ctx.orm, ws.id);
    await pool.ensure(1);
    const agentId = await createAgent(ctx.apiUrl, pool.next());
    const t0 = Date.now();
    await seedRuns(ctx, ws.id, agentId, 1, size);
    console.error(`  seeded a list workspace with ${size} runs (${Date.now() - t0} ms)`);
    await pool.ensure(2 * 5000 * (ctx.seconds + ctx.warmupSeconds));
    workspaces.push({ size, id: ws.id, pool });
  }
  const [{ n: tableRows }] = await ctx.orm.em.fork().getConnection().execute('select count(*)::int as n from runs');
  const pages = await Promise.all(
    workspaces.map(async ({ size, id, pool }) => {
      const load = { ...http, perRequestHeaders: () => ({ authorization: pool.next() }) };
      const cursor = await cursorAt(ctx, id, Math.floor(size / 2));
      return [
        { ...load, url: `${ctx.apiUrl}/v1/runs?limit=20` },
        { ...load, url: `${ctx.apiUrl}/v1/runs?limit=20&cursor=${cursor}` },
      ];
    }),
  );
  const measured = await measureHttpInTurns(pages.flat(), LIST_ROUNDS);
  const lists = workspaces.map(({ size }, i) => ({
    size,
    tableRows,
    first: measured[2 * i],
    middle: measured[2 * i + 1],
  }));

  const base = lists[0];
  const listRows = lists.flatMap(({ size, tableRows, first, middle }) => [
    [
      `${fmt(size)} (table ${fmt(tableRows)})`,
      'first page',
      first.rps,
      first.p50,
      first.p95,
      first.p99,
      `${fmt(ratio(first.p50, base.first.p50), 2)}×`,
      first.errors,
    ],
    [
      '',
      `page at ${fmt(size / 2)}`,
      middle.rps,
      middle.p50,
      middle.p95,
      middle.p99,
      `${fmt(ratio(middle.p50, base.middle.p50), 2)}×`,
      middle.errors,
    ],
  ]);
  const markdown = [
    `### 4. Read path (${ctx.connections} connections, ${ctx.seconds} s each)`,
    '',
    '`GET /v1/runs/{id}` with an API key; baseline = bare Koa route on the same process layout that does nothing.',
    '',
    table(COMPARISON_HEADERS, comparisonRows(getService, getBaseline)),
    '',
    'The same read against a bare Koa route that does its one necessary `select` of the run row through `pg`:',
    '',
    table(COMPARISON_HEADERS, comparisonRows(getService, getSelect)),
    '',
    `\`GET /v1/runs?limit=20\` in workspaces of 1k, 10k and 100k runs, their pages taken in turns (${LIST_ROUNDS} rounds; p50 ratio against the same page at 1k):`,
    '',
    table(['workspace runs', 'page', 'throughput /s', 'p50 ms', 'p95 ms', 'p99 ms', 'p50 vs 1k', 'errors'], listRows),
  ].join('\n');
  return {
    title: 'read',
    markdown,
    data: {
      get: {
        service: getService,
        baseline: getBaseline,
        ratio: { throughput: ratio(getService.rps, getBaseline.rps), p50: ratio(getService.p50, getBaseline.p50) },
        selectBaseline: getSelect,
        selectRatio: { throughput: ratio(getService.rps, getSelect.rps), p50: ratio(getService.p50, getSelect.p50) },
      },
      list: lists,
      overdrawnKeys: workspaces.reduce((sum, w) => sum + w.pool.overdrawn, ctx.pool.overdrawn),
    },
  };
}
