import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { File } from '../../db/entities/File';
import { Folder } from '../../db/entities/Folder';
import { Workspace } from '../../db/entities/Workspace';
import { errors } from '../../domain/errors';
import { findPage } from '../../domain/pagination';
import { idParams } from '../schemas/common';
import {
  createFolderBody,
  folderListOut,
  folderOut,
  listFoldersQuery,
  patchFolderBody,
  serializeFolder,
} from '../schemas/files';
import { defineRoute, type RouteDef } from './route';

type In<T extends z.ZodType> = z.infer<T>;
type IdParams = In<typeof idParams>;
const read = { auth: 'any', scope: 'files:read' } as const;
const write = { auth: 'any', scope: 'files:write' } as const;

export async function findFolder(em: EntityManager, workspaceId: string, id: string): Promise<Folder> {
  const folder = await em.findOne(Folder, { id, workspace: workspaceId });
  if (!folder) throw errors.notFound('Folder');
  return folder;
}

/** A folder named in a body, query or form field: unknown or foreign is the request's fault (400), not a 404. */
export async function referencedFolder(
  em: EntityManager,
  workspaceId: string,
  id: string,
  path: string,
): Promise<Folder> {
  const folder = await em.findOne(Folder, { id, workspace: workspaceId });
  if (!folder) throw errors.validation([{ path, message: 'No such folder in this workspace' }]);
  return folder;
}

/** The list filter for `?folderId=` / `?parentId=`: `root` is "in no folder", absent is "anywhere". */
export async function folderFilter(em: EntityManager, workspaceId: string, value: string | undefined, path: string) {
  if (value === undefined) return undefined;
  return value === 'root' ? null : (await referencedFolder(em, workspaceId, value, path)).id;
}

/** The folder a write points at changed under us (deleted meanwhile): the foreign key says so. */
export function staleFolder(err: unknown, path: string): unknown {
  return err instanceof ForeignKeyConstraintViolationException
    ? errors.validation([{ path, message: 'No such folder in this workspace' }])
    : err;
}

/** True when `folderId` is `candidateParentId` or one of its ancestors, i.e. the move would make a cycle. */
async function wouldCycle(em: EntityManager, folderId: string, candidateParentId: string): Promise<boolean> {
  const rows = await em.execute<Array<{ cycle: boolean }>>(
    `with recursive chain as (
       select id, parent_id from folders where id = ?
       union
       select f.id, f.parent_id from folders f join chain c on f.id = c.parent_id
     ) select exists (select 1 from chain where id = ?) as cycle`,
    [candidateParentId, folderId],
  );
  return rows[0].cycle;
}

/** CONTRACT §7 folders: create, list, rename/move (never into itself or below), delete when empty. */
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
        const em = ctx.state.em;
        const workspaceId = ctx.state.identity!.workspaceId;
        const parent = body.parentId ? await referencedFolder(em, workspaceId, body.parentId, 'parentId') : null;
        const folder = new Folder(em.getReference(Workspace, workspaceId), body.name, parent);
        await em
          .persist(folder)
          .flush()
          .catch((err: unknown) => {
            throw staleFolder(err, 'parentId');
          });
        ctx.status = 201;
        ctx.body = serializeFolder(folder);
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
        const em = ctx.state.em;
        const workspaceId = ctx.state.identity!.workspaceId;
        const parent = await folderFilter(em, workspaceId, query.parentId, 'parentId');
        const where = { workspace: workspaceId, ...(parent === undefined ? {} : { parent }) };
        const { items, nextCursor } = await findPage(em, Folder, where, query);
        ctx.body = { folders: items.map(serializeFolder), nextCursor };
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
        const workspaceId = ctx.state.identity!.workspaceId;
        const folder = await ctx.state.em.transactional(async (tx) => {
          // Moves within a workspace take turns: two concurrent moves (A into B, B into A) could each pass
          // the cycle check on its own and together make a loop.
          if (body.parentId) {
            await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`folders:${workspaceId}`]);
          }
          const found = await findFolder(tx, workspaceId, params.id);
          if (body.name !== undefined) found.name = body.name;
          if (body.parentId === null) found.parent = null;
          if (body.parentId) {
            const parent = await referencedFolder(tx, workspaceId, body.parentId, 'parentId');
            if (await wouldCycle(tx, found.id, parent.id)) {
              const message = 'A folder cannot move into itself or its own subfolder';
              throw errors.validation([{ path: 'parentId', message }]);
            }
            found.parent = parent;
          }
          return found;
        });
        ctx.body = serializeFolder(folder);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/folders/:id',
      summary: 'Delete an empty folder (409 conflict while it holds files or folders)',
      tag: 'files',
      access: write,
      params: idParams,
      responses: { 204: { description: 'Deleted' } },
      async handler(ctx, { params }) {
        const em = ctx.state.em;
        const folder = await findFolder(em, ctx.state.identity!.workspaceId, params.id);
        const folders = await em.count(Folder, { parent: folder.id });
        const files = await em.count(File, { folder: folder.id });
        if (folders > 0 || files > 0) throw errors.conflict('The folder is not empty', { folders, files });
        // Something may land in it between the count and the delete; the foreign keys then refuse.
        await em.nativeDelete(Folder, { id: folder.id }).catch((err: unknown) => {
          if (err instanceof ForeignKeyConstraintViolationException) throw errors.conflict('The folder is not empty');
          throw err;
        });
        ctx.status = 204;
      },
    }),
  ];
}
