import type { EntityManager } from '@mikro-orm/postgresql';
import { identityAllows } from '../identity/credentials';
import type { Identity } from '../identity/identity';
import type { Scope } from '../identity/scopes';
import { HIGHLIGHT, searchKnowledge } from '../knowledge/search';

/** What workspace search covers (docs/api/search.md). */
export const SEARCH_TYPES = ['runs', 'agents', 'files', 'knowledge', 'flows'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** The scope that lets a caller see each type of result. */
const SCOPE_OF: Record<SearchType, Scope> = {
  runs: 'runs:read',
  agents: 'agents:read',
  files: 'files:read',
  knowledge: 'agents:read',
  flows: 'flows:read',
};

/** Runs are matched among the workspace's newest 10,000, so one search never reads an unbounded history. */
const RUNS_SCANNED = 10_000;
/** Characters of context either side of a substring match in a snippet. */
const CONTEXT = 60;

export interface SearchHit {
  type: SearchType;
  id: string;
  title: string;
  snippet: string;
}

/** `q` as a literal ILIKE pattern (its `%`, `_` and `\` escaped) matching anywhere. */
function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A window of `text` around the first case-insensitive occurrence of `q`, the occurrence marked. */
export function markedExcerpt(text: string, q: string): string {
  const at = text.toLowerCase().indexOf(q.toLowerCase());
  if (at < 0) return text.slice(0, 2 * CONTEXT);
  const from = Math.max(0, at - CONTEXT);
  const to = Math.min(text.length, at + q.length + CONTEXT);
  return (
    (from > 0 ? '…' : '') +
    text.slice(from, at) +
    HIGHLIGHT.start +
    text.slice(at, at + q.length) +
    HIGHLIGHT.stop +
    text.slice(at + q.length, to) +
    (to < text.length ? '…' : '')
  );
}

type Row = { id: string; title: string; body: string };

async function searchRuns(em: EntityManager, workspaceId: string, q: string, limit: number): Promise<SearchHit[]> {
  const rows = await em.getConnection().execute<Row[]>(
    `select r.id, a.name || ' · ' || r.status as title, coalesce(r.input::text, '') || ' ' || coalesce(r.output::text, '') as body
     from (select * from runs where workspace_id = ? order by created_at desc, id desc limit ${RUNS_SCANNED}) r
     join agents a on a.id = r.agent_id
     where r.id::text = ? or r.input::text ilike ? escape '\\' or r.output::text ilike ? escape '\\'
     order by r.created_at desc, r.id desc
     limit ?`,
    [workspaceId, q.toLowerCase(), containsPattern(q), containsPattern(q), limit],
  );
  return rows.map((r) => ({ type: 'runs', id: r.id, title: r.title, snippet: markedExcerpt(r.body, q) }));
}

async function searchAgents(em: EntityManager, workspaceId: string, q: string, limit: number): Promise<SearchHit[]> {
  const rows = await em.getConnection().execute<Row[]>(
    `select id, name as title, name as body from agents
     where workspace_id = ? and deleted_at is null and name ilike ? escape '\\'
     order by created_at desc, id desc limit ?`,
    [workspaceId, containsPattern(q), limit],
  );
  return rows.map((r) => ({ type: 'agents', id: r.id, title: r.title, snippet: markedExcerpt(r.body, q) }));
}

async function searchFiles(em: EntityManager, workspaceId: string, q: string, limit: number): Promise<SearchHit[]> {
  const rows = await em.getConnection().execute<Row[]>(
    `select id, filename as title, filename as body from files
     where workspace_id = ? and filename ilike ? escape '\\'
     order by created_at desc, id desc limit ?`,
    [workspaceId, containsPattern(q), limit],
  );
  return rows.map((r) => ({ type: 'files', id: r.id, title: r.title, snippet: markedExcerpt(r.body, q) }));
}

async function searchFlows(em: EntityManager, workspaceId: string, q: string, limit: number): Promise<SearchHit[]> {
  const rows = await em.getConnection().execute<Row[]>(
    `select id, name as title, name || coalesce(' · ' || description, '') as body from flows
     where workspace_id = ? and (name ilike ? escape '\\' or description ilike ? escape '\\')
     order by created_at desc, id desc limit ?`,
    [workspaceId, containsPattern(q), containsPattern(q), limit],
  );
  return rows.map((r) => ({ type: 'flows', id: r.id, title: r.title, snippet: markedExcerpt(r.body, q) }));
}

async function searchType(
  em: EntityManager,
  type: SearchType,
  workspaceId: string,
  q: string,
  limit: number,
): Promise<SearchHit[]> {
  switch (type) {
    case 'runs':
      return searchRuns(em, workspaceId, q, limit);
    case 'agents':
      return searchAgents(em, workspaceId, q, limit);
    case 'files':
      return searchFiles(em, workspaceId, q, limit);
    case 'knowledge':
      return (await searchKnowledge(em, workspaceId, { q, limit })).map((h) => ({
        type: 'knowledge',
        id: h.documentId,
        title: h.title,
        snippet: h.snippet,
      }));
    case 'flows':
      return searchFlows(em, workspaceId, q, limit);
  }
}

/**
 * One query over the workspace (docs/api/search.md): each requested type the caller's scopes may read
 * (others are left out silently), at most `limit` results in all, taken in turn from each type's own
 * order (knowledge by rank, the rest newest first) so no type crowds the others out.
 */
export async function searchWorkspace(
  em: EntityManager,
  identity: Identity,
  query: { q: string; types: SearchType[]; limit: number },
): Promise<SearchHit[]> {
  const types = [...new Set(query.types)].filter((t) => identityAllows(identity, SCOPE_OF[t]));
  const lists: SearchHit[][] = [];
  for (const type of types) lists.push(await searchType(em, type, identity.workspaceId, query.q, query.limit));
  const merged: SearchHit[] = [];
  for (let i = 0; merged.length < query.limit && lists.some((l) => i < l.length); i++) {
    for (const list of lists) if (i < list.length && merged.length < query.limit) merged.push(list[i]);
  }
  return merged;
}
