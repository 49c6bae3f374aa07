import type { z } from 'zod';
import { searchKnowledge } from '../../../domain/knowledge/search';
import { knowledgeSearchOut, knowledgeSearchQuery } from '../../schemas/knowledge';
import { defineRoute, type RouteDef } from '../route';

/** Full-text search over the knowledge documents (docs/api/knowledge.md); declared before `/v1/knowledge/:id`. */
export function knowledgeSearchRoutes(): RouteDef[] {
  return [
    defineRoute<undefined, z.infer<typeof knowledgeSearchQuery>>({
      method: 'GET',
      path: '/v1/knowledge/search',
      summary: 'Search knowledge documents (PostgreSQL full-text search), best first, with highlighted snippets',
      tag: 'knowledge',
      access: { auth: 'any', scope: 'agents:read' },
      query: knowledgeSearchQuery,
      responses: { 200: { description: 'Matches, best first', schema: knowledgeSearchOut } },
      async handler(ctx, { query }) {
        ctx.body = { results: await searchKnowledge(ctx.state.em, ctx.state.identity!.workspaceId, query) };
      },
    }),
  ];
}
