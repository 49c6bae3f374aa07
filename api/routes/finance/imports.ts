import type { z } from 'zod';
import { createImport, getImport, listImports } from '../../../domain/finance/imports';
import { pageQuery } from '../../../domain/shared/pagination';
import type { Config } from '../../../platform/config';
import type { Storage } from '../../../platform/storage/storage';
import { idParams } from '../../schemas/common';
import { createImportBody, importListOut, importOut } from '../../schemas/finance';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;

/** Imports of bank exports from the file library (docs/api/finance.md). */
export function financeImportRoutes(deps: { config: Config; storage: Storage }): RouteDef[] {
  return [
    defineRoute<z.infer<typeof createImportBody>>({
      method: 'POST',
      path: '/v1/finance/imports',
      summary: 'Import a bank export (CSV with a column mapping, or OFX/QFX) from the file library',
      tag: 'finance',
      access: { auth: 'any', scope: 'finance:write' },
      body: createImportBody,
      responses: { 201: { description: 'Imported, all or nothing', schema: importOut } },
      async handler(ctx, { body }) {
        ctx.body = await createImport(
          ctx.state.em,
          deps.storage,
          deps.config.maxImportBytes,
          ctx.state.identity!,
          body,
        );
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/finance/imports',
      summary: 'List imports, newest first',
      tag: 'finance',
      access: { auth: 'any', scope: 'finance:read' },
      query: pageQuery,
      responses: { 200: { description: 'Imports', schema: importListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listImports(ctx.state.em, ctx.state.identity!, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/finance/imports/:id',
      summary: 'Get an import with its per-line errors',
      tag: 'finance',
      access: { auth: 'any', scope: 'finance:read' },
      params: idParams,
      responses: { 200: { description: 'The import', schema: importOut } },
      async handler(ctx, { params }) {
        ctx.body = await getImport(ctx.state.em, ctx.state.identity!, params.id);
      },
    }),
  ];
}
