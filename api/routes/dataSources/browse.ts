import type { z } from 'zod';
import { describeObject, listObjects, readSource } from '../../../domain/dataSources/browse';
import type { SourceDeps } from '../../../domain/dataSources/connection';
import { idParams } from '../../schemas/common';
import { objectOut, objectParams, objectsOut, readBody, readOut } from '../../schemas/dataSources';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;
const read = { auth: 'any', scope: 'data_sources:read' } as const;
const failed = { description: 'The source failed (unreachable, refused credentials, timed out)' };

/** Browsing and reading a data source: its objects, their columns, structured reads (docs/api/data-sources.md). */
export function dataSourceBrowseRoutes(deps: { sources: SourceDeps }): RouteDef[] {
  const { sources } = deps;
  return [
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/data-sources/:id/objects',
      summary: "The source's tables and views, or its sheets",
      tag: 'data-sources',
      access: read,
      params: idParams,
      responses: { 200: { description: 'Objects', schema: objectsOut }, 409: failed },
      async handler(ctx, { params }) {
        ctx.body = await listObjects(ctx.state.em, sources, ctx.state.identity!.workspaceId, params.id);
      },
    }),
    defineRoute<undefined, undefined, z.infer<typeof objectParams>>({
      method: 'GET',
      path: '/v1/data-sources/:id/objects/:name',
      summary: "An object's columns",
      tag: 'data-sources',
      access: read,
      params: objectParams,
      responses: { 200: { description: 'The columns', schema: objectOut }, 409: failed },
      async handler(ctx, { params }) {
        ctx.body = await describeObject(ctx.state.em, sources, ctx.state.identity!.workspaceId, params.id, params.name);
      },
    }),
    defineRoute<z.infer<typeof readBody>, undefined, IdParams>({
      method: 'POST',
      path: '/v1/data-sources/:id/read',
      summary: 'A structured read (no SQL): columns, filters, order, at most 1000 rows',
      tag: 'data-sources',
      access: read,
      params: idParams,
      body: readBody,
      responses: { 200: { description: 'Rows', schema: readOut }, 409: failed },
      async handler(ctx, { params, body }) {
        ctx.body = await readSource(ctx.state.em, sources, ctx.state.identity!.workspaceId, params.id, body);
      },
    }),
  ];
}
