import type { z } from 'zod';
import { searchWorkspace } from '../../domain/search/workspace';
import { workspaceSearchOut, workspaceSearchQuery } from '../schemas/search';
import { defineRoute, type RouteDef } from './route';

/** Workspace search over runs, agents, files, knowledge and flows (docs/api/search.md). */
export function searchRoutes(): RouteDef[] {
  return [
    defineRoute<undefined, z.infer<typeof workspaceSearchQuery>>({
      method: 'GET',
      path: '/v1/search',
      summary: "Search the workspace; each result type only where the caller's scopes may read it",
      tag: 'search',
      access: { auth: 'any', scope: 'runs:read' },
      query: workspaceSearchQuery,
      responses: { 200: { description: 'Results, taken in turn from each type', schema: workspaceSearchOut } },
      async handler(ctx, { query }) {
        ctx.body = { results: await searchWorkspace(ctx.state.em, ctx.state.identity!, query) };
      },
    }),
  ];
}
