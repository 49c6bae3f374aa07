import type { EntityManager } from '@mikro-orm/postgresql';

/** The marks around matched words in a snippet (docs/api/knowledge.md). */
export const HIGHLIGHT = { start: '<mark>', stop: '</mark>' } as const;

/**
 * Snippets are cut from the first 100,000 characters of a document: `ts_headline` parses all the text it
 * is given, so a 5 MiB document would cost a search tens of milliseconds per result otherwise.
 */
const SNIPPET_SOURCE_CHARS = 100_000;

export interface KnowledgeHit {
  documentId: string;
  title: string;
  snippet: string;
  score: number;
}

/**
 * Full-text search over the workspace's knowledge documents (docs/api/knowledge.md): `q` in web-search
 * syntax (`websearch_to_tsquery`: words, "quoted phrases", `or`, `-excluded`), English stemming, ranked by
 * `ts_rank` (title matches weigh more than text matches), best first, at most `limit`. A query of stop
 * words only matches nothing. Only the documents linked to `agentId`, when given.
 */
export async function searchKnowledge(
  em: EntityManager,
  workspaceId: string,
  query: { q: string; agentId?: string; limit: number },
): Promise<KnowledgeHit[]> {
  const options = `StartSel=${HIGHLIGHT.start}, StopSel=${HIGHLIGHT.stop}, MaxWords=35, MinWords=15, MaxFragments=2, FragmentDelimiter=" … "`;
  // The query is written out at each use rather than taken from a CTE: a constant tsquery lets the planner
  // use the GIN index, where a joined one made it test every document of the workspace.
  const tsquery = `websearch_to_tsquery('english', ?)`;
  const agentFilter = query.agentId ? 'and agent_ids @> array[?]::text[]' : '';
  const params: unknown[] = [
    query.q,
    query.q,
    workspaceId,
    query.q,
    ...(query.agentId ? [query.agentId] : []),
    query.limit,
  ];
  // Rank and cut to `limit` first, then make snippets for those rows only.
  const rows = await em.getConnection().execute<Array<{ id: string; title: string; score: number; snippet: string }>>(
    `select top.id, top.title, top.score,
       ts_headline('english', left(d.text, ${SNIPPET_SOURCE_CHARS}), ${tsquery}, '${options}') as snippet
     from (
       select id, title, ts_rank(search, ${tsquery}) as score
       from knowledge_documents
       where workspace_id = ? and search @@ ${tsquery} ${agentFilter}
       order by score desc, id
       limit ?) top
     join knowledge_documents d on d.id = top.id
     order by top.score desc, top.id`,
    params,
  );
  return rows.map((r) => ({ documentId: r.id, title: r.title, snippet: r.snippet, score: Number(r.score) }));
}
