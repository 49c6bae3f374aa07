import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { errors } from '../../domain/errors';
import { deleteFile, findFile, listFiles, saveUpload, updateFile } from '../../domain/files/files';
import { referencedFolder } from '../../domain/files/folders';
import { serializeFile } from '../../domain/files/presenters';
import type { Config } from '../../platform/config';
import type { Storage } from '../../platform/storage/storage';
import { idParams } from '../schemas/common';
import { fileListOut, fileOut, listFilesQuery, patchFileBody, uploadHeaders, uploadQuery } from '../schemas/files';
import { receiveMultipart } from '../multipart';
import { rawFileMeta, receiveRaw, sendStored, uploadKind } from '../uploads';
import { defineRoute, type RouteDef } from './route';

// Run creation still imports it from here; its home is domain/files/files.ts.

type In<T extends z.ZodType> = z.infer<T>;
type IdParams = In<typeof idParams>;
const read = { auth: 'any', scope: 'files:read' } as const;
const write = { auth: 'any', scope: 'files:write' } as const;

const uploadFolderField = z.uuid().optional();

/** The file library: upload, list, read, download, rename/move and delete files (docs/api/files.md). */
export function fileRoutes(deps: { config: Config; storage: Storage }): RouteDef[] {
  const { storage } = deps;
  const maxBytes = deps.config.maxUploadBytes;
  return [
    // No `body` schema: the JSON parser must not touch the bytes; the handler streams the request itself.
    defineRoute<undefined, In<typeof uploadQuery>>({
      method: 'POST',
      path: '/v1/files',
      summary: 'Upload a file: raw bytes (Content-Type + X-Filename) or multipart/form-data field "file"',
      tag: 'files',
      access: write,
      query: uploadQuery,
      headers: uploadHeaders,
      rawBody: {
        contentTypes: ['application/octet-stream', 'multipart/form-data'],
        description: 'The bytes, with `Content-Type: <mime>` and `X-Filename: <name>`; or multipart with field `file`',
      },
      responses: { 201: { description: 'Stored', schema: fileOut } },
      async handler(ctx, { query }) {
        const em = ctx.state.em;
        const workspaceId = ctx.state.identity!.workspaceId;
        // The storage key is the file id: never derived from anything the caller sent.
        const id = randomUUID();
        if (uploadKind(ctx, maxBytes) === 'raw') {
          const meta = rawFileMeta(ctx);
          // Checked before reading a byte, so a bad folder costs no storage work.
          const folder = query.folderId ? await referencedFolder(em, workspaceId, query.folderId, 'folderId') : null;
          const stored = await receiveRaw(ctx, storage, id, maxBytes);
          ctx.body = await saveUpload(em, storage, workspaceId, { id, ...meta, ...stored }, async () => folder);
        } else {
          const { fields, ...stored } = await receiveMultipart(ctx, storage, id, maxBytes);
          ctx.body = await saveUpload(em, storage, workspaceId, { id, ...stored }, async () => {
            const field = uploadFolderField.safeParse(fields?.folderId ?? query.folderId);
            if (!field.success) throw errors.validation([{ path: 'folderId', message: 'Must be a folder id' }]);
            return field.data ? referencedFolder(em, workspaceId, field.data, 'folderId') : null;
          });
        }
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, In<typeof listFilesQuery>>({
      method: 'GET',
      path: '/v1/files',
      summary: 'List files, newest first; ?folderId= a folder id or "root"',
      tag: 'files',
      access: read,
      query: listFilesQuery,
      responses: { 200: { description: 'Files, newest first', schema: fileListOut } },
      async handler(ctx, { query }) {
        const { items, nextCursor } = await listFiles(ctx.state.em, ctx.state.identity!.workspaceId, query);
        ctx.body = { files: items, nextCursor };
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/files/:id',
      summary: "A file's metadata",
      tag: 'files',
      access: read,
      params: idParams,
      responses: { 200: { description: 'The file', schema: fileOut } },
      async handler(ctx, { params }) {
        ctx.body = serializeFile(await findFile(ctx.state.em, ctx.state.identity!.workspaceId, params.id));
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/files/:id/content',
      summary: "Download a file's bytes (as an attachment, with its stored Content-Type)",
      tag: 'files',
      access: read,
      params: idParams,
      responses: { 200: { description: 'The bytes, streamed' } },
      async handler(ctx, { params }) {
        await sendStored(ctx, storage, await findFile(ctx.state.em, ctx.state.identity!.workspaceId, params.id));
      },
    }),
    defineRoute<In<typeof patchFileBody>, undefined, IdParams>({
      method: 'PATCH',
      path: '/v1/files/:id',
      summary: 'Rename a file and/or move it to a folder (folderId null: the root)',
      tag: 'files',
      access: write,
      params: idParams,
      body: patchFileBody,
      responses: { 200: { description: 'The file', schema: fileOut } },
      async handler(ctx, { params, body }) {
        ctx.body = await updateFile(ctx.state.em, ctx.state.identity!.workspaceId, params.id, body);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/files/:id',
      summary: 'Delete a file and its bytes',
      tag: 'files',
      access: write,
      params: idParams,
      responses: { 204: { description: 'Deleted' } },
      async handler(ctx, { params }) {
        await deleteFile(ctx.state.em, storage, ctx.state.identity!.workspaceId, params.id);
        ctx.status = 204;
      },
    }),
  ];
}
