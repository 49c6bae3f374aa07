import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { storeSheets, uploadTarget } from '../../../domain/dataSources/uploads';
import type { Config } from '../../../platform/config';
import type { Storage } from '../../../platform/storage/storage';
import { receiveMultipart } from '../../multipart';
import { rawFileMeta, receiveRaw, uploadKind } from '../../uploads';
import { describeObject, listObjects, readSource } from '../../../domain/dataSources/browse';
import type { SourceDeps } from '../../../domain/dataSources/connection';
import { idParams } from '../../schemas/common';
import { objectOut, objectParams, objectsOut, readBody, readOut, sheetsOut } from '../../schemas/dataSources';
import { uploadHeaders } from '../../schemas/files';
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

/** Uploading CSV/XLSX files to a file source (docs/api/data-sources.md): streamed like `POST /v1/files`. */
export function dataSourceUploadRoutes(deps: { config: Config; storage: Storage }): RouteDef[] {
  const { storage } = deps;
  const maxBytes = deps.config.maxUploadBytes;
  return [
    defineRoute<undefined, undefined, IdParams>({
      method: 'POST',
      path: '/v1/data-sources/:id/files',
      summary: 'Upload a CSV or XLSX file to a file source: raw bytes (Content-Type + X-Filename) or multipart "file"',
      tag: 'data-sources',
      access: { auth: 'any', scope: 'data_sources:manage' },
      params: idParams,
      headers: uploadHeaders,
      rawBody: {
        contentTypes: ['application/octet-stream', 'multipart/form-data'],
        description: 'The file, with `Content-Type: <mime>` and `X-Filename: <name>`; or multipart with field `file`',
      },
      responses: { 201: { description: 'The sheets it became', schema: sheetsOut } },
      async handler(ctx, { params }) {
        const em = ctx.state.em;
        const source = await uploadTarget(em, ctx.state.identity!.workspaceId, params.id);
        // the bytes only pass through storage on their way to the parser: a key of our own
        const key = `data-source-upload-${randomUUID()}`;
        if (uploadKind(ctx, maxBytes) === 'raw') {
          const meta = rawFileMeta(ctx);
          await receiveRaw(ctx, storage, key, maxBytes);
          ctx.body = await storeSheets(em, storage, source, deps.config.zipLimits, { key, ...meta });
        } else {
          const { filename, mime } = await receiveMultipart(ctx, storage, key, maxBytes);
          ctx.body = await storeSheets(em, storage, source, deps.config.zipLimits, { key, filename, mime });
        }
        ctx.status = 201;
      },
    }),
  ];
}
