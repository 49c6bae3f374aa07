import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { File } from '../../db/entities/File';
import { Folder } from '../../db/entities/Folder';
import { Workspace } from '../../db/entities/Workspace';
import { errors } from '../errors';
import { findPage } from '../shared/pagination';
import { serializeFolder, type FolderView } from './presenters';

const noSuchFolder = (path: string) => errors.validation([{ path, message: 'No such folder in this workspace' }]);

/**
 * A folder named in the path.
 * @throws `not_found` when the workspace has no such folder (another workspace's is not found either)
 */
export async function findFolder(em: EntityManager, workspaceId: string, id: string): Promise<Folder> {
  const folder = await em.findOne(Folder, { id, workspace: workspaceId });
  if (!folder) throw errors.notFound('Folder');
  return folder;
}

/**
 * A folder named in a body, query or form field (`path` names that field).
 * @throws `validation_error` when unknown or foreign: the request's fault, not a 404
 */
export async function referencedFolder(
  em: EntityManager,
  workspaceId: string,
  id: string,
  path: string,
): Promise<Folder> {
  const folder = await em.findOne(Folder, { id, workspace: workspaceId });
  if (!folder) throw noSuchFolder(path);
  return folder;
}

/** The list filter for `?folderId=` / `?parentId=`: `root` is "in no folder", absent is "anywhere". */
export async function folderFilter(
  em: EntityManager,
  workspaceId: string,
  value: string | undefined,
  path: string,
): Promise<string | null | undefined> {
  if (value === undefined) return undefined;
  return value === 'root' ? null : (await referencedFolder(em, workspaceId, value, path)).id;
}

/** The folder a write points at changed under us (deleted meanwhile): the foreign key says so. */
export function staleFolder(err: unknown, path: string): unknown {
  return err instanceof ForeignKeyConstraintViolationException ? noSuchFolder(path) : err;
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

/**
 * Creates a folder, at the root when `parentId` is absent or null.
 * @throws `validation_error` (`parentId`) when the parent is not a folder of the workspace
 */
export async function createFolder(
  em: EntityManager,
  workspaceId: string,
  input: { name: string; parentId?: string | null },
): Promise<FolderView> {
  const parent = input.parentId ? await referencedFolder(em, workspaceId, input.parentId, 'parentId') : null;
  const folder = new Folder(em.getReference(Workspace, workspaceId), input.name, parent);
  await em
    .persist(folder)
    .flush()
    .catch((err: unknown) => {
      throw staleFolder(err, 'parentId');
    });
  return serializeFolder(folder);
}

/** Folders, newest first, one page; `parentId` a folder id, `root`, or absent for all. */
export async function listFolders(
  em: EntityManager,
  workspaceId: string,
  query: { parentId?: string; limit: number; cursor?: string },
): Promise<{ items: FolderView[]; nextCursor: string | null }> {
  const parent = await folderFilter(em, workspaceId, query.parentId, 'parentId');
  const where = { workspace: workspaceId, ...(parent === undefined ? {} : { parent }) };
  const { items, nextCursor } = await findPage(em, Folder, where, query);
  return { items: items.map(serializeFolder), nextCursor };
}

/**
 * Renames and/or moves a folder (`parentId` null: to the root), never into itself or below itself.
 * @throws `not_found`; `validation_error` (`parentId`) for an unknown parent or a move that would make a cycle
 */
export async function updateFolder(
  em: EntityManager,
  workspaceId: string,
  id: string,
  patch: { name?: string; parentId?: string | null },
): Promise<FolderView> {
  const folder = await em.transactional(async (tx) => {
    // Moves within a workspace take turns: two concurrent moves (A into B, B into A) could each pass
    // the cycle check on its own and together make a loop.
    if (patch.parentId) {
      await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`folders:${workspaceId}`]);
    }
    const found = await findFolder(tx, workspaceId, id);
    if (patch.name !== undefined) found.name = patch.name;
    if (patch.parentId === null) found.parent = null;
    if (patch.parentId) {
      const parent = await referencedFolder(tx, workspaceId, patch.parentId, 'parentId');
      if (await wouldCycle(tx, found.id, parent.id)) {
        const message = 'A folder cannot move into itself or its own subfolder';
        throw errors.validation([{ path: 'parentId', message }]);
      }
      found.parent = parent;
    }
    return found;
  });
  return serializeFolder(folder);
}

/**
 * Deletes an empty folder.
 * @throws `not_found`; `conflict` while it holds files or folders
 */
export async function deleteFolder(em: EntityManager, workspaceId: string, id: string): Promise<void> {
  const folder = await findFolder(em, workspaceId, id);
  const folders = await em.count(Folder, { parent: folder.id });
  const files = await em.count(File, { folder: folder.id });
  if (folders > 0 || files > 0) throw errors.conflict('The folder is not empty', { folders, files });
  // Something may land in it between the count and the delete; the foreign keys then refuse.
  await em.nativeDelete(Folder, { id: folder.id }).catch((err: unknown) => {
    if (err instanceof ForeignKeyConstraintViolationException) throw errors.conflict('The folder is not empty');
    throw err;
  });
}
