import type { z } from 'zod';
import { pageQuery } from '../../../domain/shared/pagination';
import { presentSavedTable } from '../../../domain/savedTables/presenters';
import {
  createSavedTable,
  deleteSavedTable,
  findSavedTable,
  listSavedTables,
  refreshNow,
  savedTableRows,
  type SavedTableDeps,
} from '../../../domain/savedTables/savedTables';
import { enforceRateLimit } from '../../middleware/rateLimit';
import type { RateLimitStore } from '../../rateLimitStore';
import { idParams } from '../../schemas/common';
import { createSavedTableBody, rowsOut, rowsQuery, savedTableListOut, savedTableOut } from '../../schemas/savedTables';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;
const read = { auth: 'any', scope: 'data_sources:read' } as const;
const manage = { auth: 'any', scope: 'data_sources:manage' } as const;
const temporalDown = { description: 'Temporal did not answer; nothing changed' };

/** Saved tables: structured reads materialised in PostgreSQL, refreshed by hand or on a cron (docs/api/data-sources.md). */
export function savedTableRoutes(
  deps: SavedTableDeps & { refreshRatePerMin: number; rateLimits: RateLimitStore },
): RouteDef[] {
  return [
    defineRoute<z.infer<typeof createSavedTableBody>>({
      method: 'POST',
      path: '/v1/saved-tables',
      summary: 'Save a read of a data source as a table; its first refresh starts at once',
      tag: 'saved-tables',
      access: manage,
      body: createSavedTableBody,
      responses: {
        201: { description: 'Created', schema: savedTableOut },
        409: { description: '`conflict`: the plan\'s saved tables or schedules are all in use (`details.quota`)' },
        503: temporalDown,
      },
      async handler(ctx, { body }) {
        ctx.body = await createSavedTable(ctx.state.em, deps, ctx.state.identity!.workspaceId, body);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/saved-tables',
      summary: 'List saved tables, newest first',
      tag: 'saved-tables',
      access: read,
      query: pageQuery,
      responses: { 200: { description: 'Saved tables', schema: savedTableListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listSavedTables(ctx.state.em, ctx.state.identity!.workspaceId, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/saved-tables/:id',
      summary: 'Get a saved table and the outcome of its last refresh',
      tag: 'saved-tables',
      access: read,
      params: idParams,
      responses: { 200: { description: 'The saved table', schema: savedTableOut } },
      async handler(ctx, { params }) {
        ctx.body = presentSavedTable(await findSavedTable(ctx.state.em, ctx.state.identity!.workspaceId, params.id));
      },
    }),
    defineRoute<undefined, z.infer<typeof rowsQuery>, IdParams>({
      method: 'GET',
      path: '/v1/saved-tables/:id/rows',
      summary: "A page of the table's rows, in the order its read returned them",
      tag: 'saved-tables',
      access: read,
      params: idParams,
      query: rowsQuery,
      responses: { 200: { description: 'Rows', schema: rowsOut } },
      async handler(ctx, { params, query }) {
        ctx.body = await savedTableRows(ctx.state.em, ctx.state.identity!.workspaceId, params.id, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'POST',
      path: '/v1/saved-tables/:id/refresh',
      summary: 'Refresh now (the workflow saved-table-<id>); one already running reads once more',
      tag: 'saved-tables',
      access: read,
      params: idParams,
      responses: {
        202: { description: 'Started', schema: savedTableOut },
        429: { description: '`rate_limited`: this table was refreshed by hand too often; see `Retry-After`' },
        503: temporalDown,
      },
      async handler(ctx, { params }) {
        // per table, so that refreshing by hand in a loop cannot keep a source busy
        await enforceRateLimit(ctx, deps.rateLimits, `saved-table-refresh:${params.id}`, deps.refreshRatePerMin);
        ctx.body = await refreshNow(ctx.state.em, deps, ctx.state.identity!.workspaceId, params.id);
        ctx.status = 202;
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/saved-tables/:id',
      summary: 'Delete a saved table, its rows and its schedule',
      tag: 'saved-tables',
      access: manage,
      params: idParams,
      responses: { 204: { description: 'Deleted' }, 503: temporalDown },
      async handler(ctx, { params }) {
        await deleteSavedTable(ctx.state.em, deps, ctx.state.identity!.workspaceId, params.id);
        ctx.status = 204;
      },
    }),
  ];
}
