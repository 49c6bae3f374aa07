import type { z } from 'zod';
import {
  createDataSource,
  deleteDataSource,
  findDataSource,
  listDataSources,
  updateDataSource,
} from '../../../domain/dataSources/dataSources';
import { testDataSource } from '../../../domain/dataSources/browse';
import { presentDataSource } from '../../../domain/dataSources/presenters';
import { pageQuery } from '../../../domain/shared/pagination';
import type { SourceDeps } from '../../../domain/dataSources/connection';
import { idParams } from '../../schemas/common';
import {
  createDataSourceBody,
  dataSourceListOut,
  dataSourceOut,
  testOut,
  updateDataSourceBody,
} from '../../schemas/dataSources';
import { auditContext } from '../../auditContext';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;
const read = { auth: 'any', scope: 'data_sources:read' } as const;
const manage = { auth: 'any', scope: 'data_sources:manage' } as const;

/** Data sources: create, list, read, change, delete and test them (docs/api/data-sources.md). */
export function dataSourceRoutes(deps: { sources: SourceDeps }): RouteDef[] {
  const { sources } = deps;
  return [
    defineRoute<z.infer<typeof createDataSourceBody>>({
      method: 'POST',
      path: '/v1/data-sources',
      summary: 'Create a data source (PostgreSQL, MySQL/MariaDB, or uploaded files)',
      tag: 'data-sources',
      access: manage,
      body: createDataSourceBody,
      responses: { 201: { description: 'Created; the password is never returned', schema: dataSourceOut } },
      async handler(ctx, { body }) {
        ctx.body = await createDataSource(ctx.state.em, sources.box, ctx.state.identity!.workspaceId, body);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/data-sources',
      summary: 'List data sources, newest first',
      tag: 'data-sources',
      access: read,
      query: pageQuery,
      responses: { 200: { description: 'Data sources', schema: dataSourceListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listDataSources(ctx.state.em, ctx.state.identity!.workspaceId, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/data-sources/:id',
      summary: 'Get a data source',
      tag: 'data-sources',
      access: read,
      params: idParams,
      responses: { 200: { description: 'The data source', schema: dataSourceOut } },
      async handler(ctx, { params }) {
        ctx.body = presentDataSource(await findDataSource(ctx.state.em, ctx.state.identity!.workspaceId, params.id));
      },
    }),
    defineRoute<z.infer<typeof updateDataSourceBody>, undefined, IdParams>({
      method: 'PATCH',
      path: '/v1/data-sources/:id',
      summary: 'Rename a data source or change its connection settings (then it is untested again)',
      tag: 'data-sources',
      access: manage,
      params: idParams,
      body: updateDataSourceBody,
      responses: { 200: { description: 'The data source', schema: dataSourceOut } },
      async handler(ctx, { params, body }) {
        const { workspaceId } = ctx.state.identity!;
        ctx.body = await updateDataSource(ctx.state.em, sources.box, workspaceId, params.id, body, auditContext(ctx));
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/data-sources/:id',
      summary: 'Delete a data source, its sheets and its saved tables',
      tag: 'data-sources',
      access: manage,
      params: idParams,
      responses: { 204: { description: 'Deleted' } },
      async handler(ctx, { params }) {
        await deleteDataSource(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
        ctx.status = 204;
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'POST',
      path: '/v1/data-sources/:id/test',
      summary: 'Connect to the source and run a read-only statement; sets its status',
      tag: 'data-sources',
      access: manage,
      params: idParams,
      responses: { 200: { description: 'The outcome; error has no secrets in it', schema: testOut } },
      async handler(ctx, { params }) {
        ctx.body = await testDataSource(ctx.state.em, sources, ctx.state.identity!.workspaceId, params.id);
      },
    }),
  ];
}
