import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { File } from '../../db/entities/File';
import { Folder } from '../../db/entities/Folder';
import { Workspace } from '../../db/entities/Workspace';
import type { Config } from '../../platform/config';
import { errors } from '../../domain/errors';
import { findPage } from '../../domain/pagination';
import { idParams } from '../schemas/common';
import { fileListOut, fileOut, listFilesQuery, patchFileBody, serializeFile, uploadQuery } from '../schemas/files';
import type { Storage } from '../../platform/storage/storage';
import { rawFileMeta, receiveMultipart, receiveRaw, sendStored, uploadKind } from '../uploads';
import { folderFilter, referencedFolder, staleFolder } from './folders';
import { defineRoute, type RouteDef } from './route';

type In<T extends z.ZodType> = z.infer<T>;
type IdParams = In<typeof idParams>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const read = { auth: 'any', scope: 'files:read' } as const;
const write = { auth: 'any', scope: 'files:write' } as const;

/**
 * The ids among `ids` that name files of the workspace (CONTRACT §5: `POST /v1/runs` checks
 * `input.fileIds` with it). Anything not UUID-shaped cannot be a file id and is simply not found.
 */
export async function findWorkspaceFiles(em: EntityManager, workspaceId: string, ids: string[]): Promise<string[]> {
  const wanted = [...new Set(ids.filter((id) => UUID.test(id)))];
  if (wanted.length === 0) return [];
  const rows = await em.find(File, { id: { $in: wanted }, workspace: workspaceId }, { fields: ['id'] });
  return rows.map((row) => row.id);
}

// A path id of another workspace is "not found", never "forbidden" (CONTRACT §1).
async function findFile(em: EntityManager, workspaceId: string, id: string): Promise<File> {
  const file = await em.findOne(File, { id, workspace: workspaceId });
  if (!file) throw errors.notFound('File');
  return file;
}

const uploadFolderField = z.uuid().optional();

/** CONTRACT §7: the file library: upload, list, read, download, rename/move and delete files; folders. */
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
        const raw = uploadKind(ctx, maxBytes) === 'raw';
        let folder: Folder | null = null;
        let upload: { filename: string; mime: string; size: number; sha256: string; fields?: Record<string, unknown> };
        if (raw) {
          const meta = rawFileMeta(ctx);
          // Checked before reading a byte, so a bad folder costs no storage work.
          if (query.folderId) folder = await referencedFolder(em, workspaceId, query.folderId, 'folderId');
          upload = { ...meta, ...(await receiveRaw(ctx, storage, id, maxBytes)) };
        } else {
          upload = await receiveMultipart(ctx, storage, id, maxBytes);
        }
        const workspace = em.getReference(Workspace, workspaceId);
        const file = new File(workspace, upload.filename, upload.mime, upload.size, upload.sha256, id);
        file.id = id;
        try {
          if (!raw) {
            const field = uploadFolderField.safeParse(upload.fields?.folderId ?? query.folderId);
            if (!field.success) throw errors.validation([{ path: 'folderId', message: 'Must be a folder id' }]);
            if (field.data) folder = await referencedFolder(em, workspaceId, field.data, 'folderId');
          }
          file.folder = folder;
          await em.persist(file).flush();
        } catch (err) {
          // Nothing may be left behind in storage when the row is not written.
          await storage.delete(id);
          throw staleFolder(err, 'folderId');
        }
        ctx.status = 201;
        ctx.body = serializeFile(file);
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
        const em = ctx.state.em;
        const workspaceId = ctx.state.identity!.workspaceId;
        const folder = await folderFilter(em, workspaceId, query.folderId, 'folderId');
        const where = { workspace: workspaceId, ...(folder === undefined ? {} : { folder }) };
        const { items, nextCursor } = await findPage(em, File, where, query);
        ctx.body = { files: items.map(serializeFile), nextCursor };
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
        const em = ctx.state.em;
        const workspaceId = ctx.state.identity!.workspaceId;
        const file = await findFile(em, workspaceId, params.id);
        if (body.filename !== undefined) file.filename = body.filename;
        if (body.folderId !== undefined) {
          file.folder =
            body.folderId === null ? null : await referencedFolder(em, workspaceId, body.folderId, 'folderId');
        }
        await em.flush().catch((err: unknown) => {
          throw staleFolder(err, 'folderId');
        });
        ctx.body = serializeFile(file);
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
        const file = await findFile(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
        // Bytes are removed inside the row's transaction: if storage fails, the row stays and a retry works.
        await ctx.state.em.transactional(async (tx) => {
          await tx.nativeDelete(File, { id: file.id });
          await storage.delete(file.storageKey);
        });
        ctx.status = 204;
      },
    }),
  ];
}
