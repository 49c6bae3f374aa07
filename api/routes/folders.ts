import type { z } from 'zod';
import { createFolder, deleteFolder, listFolders, updateFolder } from '../../domain/files/folders';
import { idParams } from '../schemas/common';
import { createFolderBody, folderListOut, folderOut, listFoldersQuery, patchFolderBody } from '../schemas/files';
import { defineRoute, type RouteDef } from './route';

type In<T extends z.ZodType> = z.infer<T>;
type IdParams = In<typeof idParams>;
const read = { auth: 'any', scope: 'files:read' } as const;
const write = { auth: 'any', scope: 'files:write' } as const;

/** Folders: create, list, rename/move (never into itself or below), delete when empty (docs/api/files.md). */
export function folderRoutes(): RouteDef[] {
  return [
    defineRoute<In<typeof createFolderBody>>({
      method: 'POST',
      path: '/v1/folders',
      summary: 'Create a folder (parentId absent or null: at the root)',
      tag: 'files',
      access: write,
      body: createFolderBody,
      responses: { 201: { description: 'Created', schema: folderOut } },
      async handler(ctx, { body }) {
        ctx.body = await createFolder(ctx.state.em, ctx.state.identity!.workspaceId, body);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, In<typeof listFoldersQuery>>({
      method: 'GET',
      path: '/v1/folders',
      summary: 'List folders, newest first; ?parentId= a folder id or "root"',
      tag: 'files',
      access: read,
      query: listFoldersQuery,
      responses: { 200: { description: 'Folders, newest first', schema: folderListOut } },
      async handler(ctx, { query }) {
        const { items, nextCursor } = await listFolders(ctx.state.em, ctx.state.identity!.workspaceId, query);
        ctx.body = { folders: items, nextCursor };
      },
    }),
    defineRoute<In<typeof patchFolderBody>, undefined, IdParams>({
      method: 'PATCH',
      path: '/v1/folders/:id',
      summary: 'Rename a folder and/or move it (parentId null: the root; never into itself or below itself)',
      tag: 'files',
      access: write,
      params: idParams,
      body: patchFolderBody,
      responses: { 200: { description: 'The folder', schema: folderOut } },
      async handler(ctx, { params, body }) {
        ctx.body = await updateFolder(ctx.state.em, ctx.state.identity!.workspaceId, params.id, body);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/folders/:id',
      summary: 'Delete an empty folder (409 conflict while it holds files or folders)',
      tag: 'files',
      access: write,
      params: idParams,
      responses: { 204: { description: 'Deleted' }, 409: { description: '`conflict`: the folder is not empty' } },
      async handler(ctx, { params }) {
        await deleteFolder(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
        ctx.status = 204;
      },
    }),
  ];
}
