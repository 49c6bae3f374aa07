import { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { File } from '../../db/entities/File';
import { RunArtifact } from '../../db/entities/RunArtifact';
import { Workspace } from '../../db/entities/Workspace';
import type { Storage } from '../../platform/storage/storage';
import { claimQuota } from '../quotas/quotas';

/** A file a run produces: its bytes, the library's name and type for it, and where it comes from. */
export interface RunFile {
  workspaceId: string;
  runId: string;
  /** the index of the run's step that writes it (null when no step does: none today) */
  step: number | null;
  /** the file's id and storage key, chosen by the writer so a retried write finds the file it made */
  fileId: string;
  filename: string;
  mime: string;
  bytes: Buffer;
}

/**
 * The one way a run writes a file into the library (docs/api/runs.md#artifacts): the bytes go to storage,
 * then the file's row, its storage quota and the run's artifact row commit in one transaction, so no file
 * a run produced is missing from `GET /v1/runs/{id}/artifacts`. A file the run already wrote under
 * `fileId` (a retried tool call) is returned as it is. Uploads by callers are inputs, not artifacts, and go
 * through saveUpload (files.ts) instead.
 * @throws 409 `conflict` with `details.quota` when the storage quota cannot take the bytes (nothing is kept)
 */
export async function storeRunFile(em: EntityManager, storage: Storage, produced: RunFile): Promise<File> {
  const existing = await em.findOne(File, { id: produced.fileId, workspace: produced.workspaceId });
  if (existing) return existing;
  const put = await storage.put(produced.fileId, Readable.from(produced.bytes), {
    maxBytes: produced.bytes.length + 1,
  });
  const workspace = em.getReference(Workspace, produced.workspaceId);
  const file = new File(workspace, produced.filename, produced.mime, put.size, put.sha256, produced.fileId);
  file.id = produced.fileId;
  try {
    await em.transactional(async (tx) => {
      await claimQuota(tx, produced.workspaceId, { storageBytes: put.size });
      tx.persist(file);
      tx.persist(new RunArtifact(produced.runId, file.id, produced.step));
    });
  } catch (err) {
    await storage.delete(produced.fileId);
    throw err;
  }
  return file;
}
