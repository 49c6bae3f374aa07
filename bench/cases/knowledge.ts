import { createAgent, createWorkspace, KeyPool } from '../../test/helpers/live/accounts';
import { measureHttp, type HttpResult } from '../lib/load';
import { fmt, table } from '../lib/stats';
import type { BenchContext, CaseResult } from '../lib/context';

const DOCUMENTS = 10_000;
/** Words per seeded document, drawn from a vocabulary of 5,000 with a skew: low numbers are common. */
const WORDS = 150;

/**
 * Adds `DOCUMENTS` knowledge documents to the workspace in one statement (the database's trigger builds
 * each one's tsvector, as for documents made through the API). Word `termN` is drawn with probability
 * falling with N, so `term1` is in nearly every document and `term4000` in a few; every tenth document
 * is linked to `agentId`. (`w > 0 * g` ties the word subquery to its row, so that PostgreSQL draws
 * each document's words anew instead of computing one text for all.)
 */
async function seedDocuments(ctx: BenchContext, workspaceId: string, agentId: string): Promise<void> {
  const conn = ctx.orm.em.fork().getConnection();
  await conn.execute(
    `insert into knowledge_documents (id, created_at, updated_at, workspace_id, title, text, chars, source_type,
       source_format, agent_ids)
     select gen_random_uuid(), t, t, ?, 'Document ' || g, body, length(body), 'text', 'text',
       case when g % 10 = 0 then array[?]::text[] else '{}'::text[] end
     from (select g, date_trunc('milliseconds', now() - g * interval '1 second') as t,
             (select string_agg('term' || (1 + floor(power(random(), 3) * 5000))::int, ' ')
                from generate_series(1, ${WORDS}) w where w > 0 * g) as body
           from generate_series(1, ?::int) g) s`,
    [workspaceId, agentId, DOCUMENTS],
  );
  await conn.execute('vacuum analyze knowledge_documents');
}

/**
 * Case 6: `GET /v1/knowledge/search` over one workspace of 10,000 documents (API key, validation, the
 * ranked full-text query and `ts_headline` snippets of the 10 best), for a rare word, a common one (in
 * most documents, so every match is ranked), a two-word query, and a rare word among one agent's
 * documents. The target: p50 under 50 ms.
 */
export async function knowledgeCase(ctx: BenchContext): Promise<CaseResult> {
  const http = { connections: ctx.connections, seconds: ctx.seconds, warmupSeconds: ctx.warmupSeconds };
  const ws = await createWorkspace(ctx.apiUrl, ctx.orm);
  const pool = new KeyPool(ctx.orm, ws.id);
  await pool.ensure(1);
  const agentId = await createAgent(ctx.apiUrl, pool.next(), { presetId: 'scripted' });
  const t0 = Date.now();
  await seedDocuments(ctx, ws.id, agentId);
  const seedMs = Date.now() - t0;
  console.error(`  seeded ${DOCUMENTS} knowledge documents (${seedMs} ms)`);

  const queries: Array<[string, string]> = [
    ['rare word', 'q=term4000'],
    ['common word', 'q=term1'],
    ['two words', 'q=term20+term300'],
    ['rare word, one agent', `q=term4000&agentId=${agentId}`],
  ];
  const measured: Array<{ query: string; matches: number; alone: HttpResult; loaded: HttpResult }> = [];
  for (const [label, qs] of queries) {
    const [{ n }] = await ctx.orm.em
      .fork()
      .getConnection()
      .execute(
        `select count(*)::int as n from knowledge_documents
         where workspace_id = ? and search @@ websearch_to_tsquery('english', ?)`,
        [ws.id, new URLSearchParams(qs).get('q')],
      );
    await pool.ensure(2 * 5000 * (ctx.seconds + ctx.warmupSeconds));
    const load = {
      ...http,
      url: `${ctx.apiUrl}/v1/knowledge/search?${qs}`,
      perRequestHeaders: () => ({ authorization: pool.next() }),
    };
    // one client: the time a search answers in; then `connections` at once: throughput
    const alone = await measureHttp({ ...load, connections: 1 });
    const loaded = await measureHttp(load);
    measured.push({ query: label, matches: n, alone, loaded });
  }

  const rows = measured.map(({ query, matches, alone, loaded }) => [
    query,
    fmt(matches),
    alone.p50,
    alone.p95,
    alone.p50 < 50 ? 'yes' : 'no',
    loaded.rps,
    loaded.p50,
    loaded.p95,
    alone.errors + loaded.errors,
  ]);
  const markdown = [
    `### 6. Knowledge search over ${fmt(DOCUMENTS)} documents (1 and ${ctx.connections} connections, ${ctx.seconds} s each)`,
    '',
    `\`GET /v1/knowledge/search\` (10 results with snippets); documents of ${WORDS} words each. Target: p50 under 50 ms with one client.`,
    '',
    table(
      [
        'query',
        'matching documents',
        '1 client p50 ms',
        '1 client p95 ms',
        'p50 < 50 ms',
        `${ctx.connections} clients /s`,
        `${ctx.connections} clients p50 ms`,
        `${ctx.connections} clients p95 ms`,
        'errors',
      ],
      rows,
    ),
  ].join('\n');
  return {
    title: 'knowledge',
    markdown,
    data: { documents: DOCUMENTS, wordsPerDocument: WORDS, seedMs, queries: measured, overdrawnKeys: pool.overdrawn },
  };
}
