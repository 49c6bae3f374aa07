import type { ToolSpec } from '../../workflows/agentTurn';
import type { ToolDeps, ToolRegistry } from '../tools/registry';
import type { Orm } from '../../db/orm';
import { Run } from '../../db/entities/Run';
import { searchKnowledge } from './search';

export const KNOWLEDGE_SEARCH = 'knowledge_search';

/** Results one call returns at most. */
const RESULTS = 5;
/** Longest query the tool accepts, as `GET /v1/knowledge/search` does. */
const MAX_QUERY_CHARS = 500;

export const KNOWLEDGE_SEARCH_SPEC: ToolSpec = {
  name: KNOWLEDGE_SEARCH,
  description:
    'Search the knowledge documents linked to this agent (full-text, best first) and return up to 5 results with highlighted snippets.',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
};

/**
 * Runs `knowledge_search` for a run: the documents of the run's workspace linked to the run's agent
 * (docs/api/knowledge.md). Returns `{ results: [{ documentId, title, snippet, score }] }` as JSON text.
 * @throws Error for a missing or unusable `query` (given back to the model as the tool's error)
 */
export async function runKnowledgeSearch(orm: Orm, runId: string, args: Record<string, unknown>): Promise<string> {
  const query = typeof args.query === 'string' ? args.query.replace(/\u0000/g, '').trim() : '';
  if (!query) throw new Error('knowledge_search needs a non-empty query');
  if (query.length > MAX_QUERY_CHARS)
    throw new Error(`knowledge_search query is longer than ${MAX_QUERY_CHARS} characters`);
  const em = orm.em.fork();
  const run = await em.findOne(Run, runId, { fields: ['workspaceId', 'agentId'] });
  if (!run) throw new Error('run not found');
  const results = await searchKnowledge(em, run.workspaceId, { q: query, agentId: run.agentId, limit: RESULTS });
  return JSON.stringify({ results });
}

/** Adds `knowledge_search` to a tool registry (it runs only where `orm` is given: the worker). */
export function registerKnowledgeTools(tools: ToolRegistry, deps: ToolDeps): void {
  tools.register(KNOWLEDGE_SEARCH_SPEC, (args, context) => {
    if (!deps.orm || !context) throw new Error('knowledge_search is not available here');
    return runKnowledgeSearch(deps.orm, context.runId, args);
  });
}
