import type { EntityManager } from '@mikro-orm/postgresql';
import { File } from '../../db/entities/File';
import type { Folder } from '../../db/entities/Folder';
import { Workspace } from '../../db/entities/Workspace';
import type { PutResult, Storage } from '../../platform/storage/storage';
import { errors } from '../errors';
import { claimQuota } from '../quotas/quotas';
import { findPage } from '../shared/pagination';
import { folderFilter, referencedFolder, staleFolder } from './folders';
import { serializeFile, type FileView } from './presenters';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The ids among `ids` that name files of the workspace; run creation checks `input.fileIds` with it.
 * Anything not UUID-shaped cannot be a file id and is simply not found.
 */
export async function findWorkspaceFiles(em: EntityManager, workspaceId: string, ids: string[]): Promise<string[]> {
  const wanted = [...new Set(ids.filter((id) => UUID.test(id)))];
  if (wanted.length === 0) return [];
  const rows = await em.find(File, { id: { $in: wanted }, workspace: workspaceId }, { fields: ['id'] });
  return rows.map((row) => row.id);
}

/**
 * A file of the workspace.
 * @throws `not_found`, also for a file of another workspace (never "forbidden")
 */
export async function findFile(em: EntityManager, workspaceId: string, id: string): Promise<File> {
  const file = await em.findOne(File, { id, workspace: workspaceId });
  if (!file) throw errors.notFound('File');
  return file;
}

/** An upload whose bytes are already stored under `id` (the storage key is the file id). */
export interface StoredUpload extends PutResult {
  id: string;
  filename: string;
  mime: string;
}

/**
 * Records a file whose bytes are already in storage. `pickFolder` runs after the bytes arrived (a
 * multipart form may name the folder after the file part); if it or the row fails, the bytes are
 * deleted, so nothing is left in storage without a row. The bytes count against the workspace's storage
 * quota, claimed with the row (domain/quotas/quotas.ts); deleting the file frees them.
 * @throws whatever `pickFolder` throws; `validation_error` (`folderId`) when the folder vanished meanwhile;
 *   409 `conflict` with `details.quota` when the storage quota cannot take the bytes
 */
export async function saveUpload(
  em: EntityManager,
  storage: Storage,
  workspaceId: string,
  upload: StoredUpload,
  pickFolder: () => Promise<Folder | null>,
): Promise<FileView> {
  const workspace = em.getReference(Workspace, workspaceId);
  const file = new File(workspace, upload.filename, upload.mime, upload.size, upload.sha256, upload.id);
  file.id = upload.id;
  try {
    file.folder = await pickFolder();
    await em.transactional(async (tx) => {
      await claimQuota(tx, workspaceId, { storageBytes: upload.size });
      tx.persist(file);
    });
  } catch (err) {
    await storage.delete(upload.id);
    throw staleFolder(err, 'folderId');
  }
  return serializeFile(file);
}

/** Files, newest first, one page; `folderId` a folder id, `root`, or absent for the whole workspace. */
export async function listFiles(
  em: EntityManager,
  workspaceId: string,
  query: { folderId?: string; limit: number; cursor?: string },
): Promise<{ items: FileView[]; nextCursor: string | null }> {
  const folder = await folderFilter(em, workspaceId, query.folderId, 'folderId');
  const where = { workspace: workspaceId, ...(folder === undefined ? {} : { folder }) };
  const { items, nextCursor } = await findPage(em, File, where, query);
  return { items: items.map(serializeFile), nextCursor };
}

/**
 * Renames a file and/or moves it to a folder (`folderId` null: the root).
 * @throws `not_found`; `validation_error` (`folderId`) when the folder is not one of the workspace
 */
export async function updateFile(
  em: EntityManager,
  workspaceId: string,
  id: string,
  patch: { filename?: string; folderId?: string | null },
): Promise<FileView> {
  const file = await findFile(em, workspaceId, id);
  if (patch.filename !== undefined) file.filename = patch.filename;
  if (patch.folderId !== undefined) {
    file.folder = patch.folderId === null ? null : await referencedFolder(em, workspaceId, patch.folderId, 'folderId');
  }
  await em.flush().catch((err: unknown) => {
    throw staleFolder(err, 'folderId');
  });
  return serializeFile(file);
}

/**
 * Deletes a file and its bytes.
 * @throws `not_found`; a storage failure, with the row kept so that a retry works
 */
export async function deleteFile(em: EntityManager, storage: Storage, workspaceId: string, id: string): Promise<void> {
  const file = await findFile(em, workspaceId, id);
  // Bytes are removed inside the row's transaction: if storage fails, the row stays and a retry works.
  await em.transactional(async (tx) => {
    await tx.nativeDelete(File, { id: file.id });
    await storage.delete(file.storageKey);
  });
}
