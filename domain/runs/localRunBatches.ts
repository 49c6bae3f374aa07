import type { EntityManager } from '@mikro-orm/postgresql';
import { LocalRunBatch } from '../../db/entities/LocalRunBatch';
import { errors } from '../errors';
import { findPage } from '../shared/pagination';

/** A batch as lists show it (docs/api/runs.md#local-runs). */
export interface LocalRunBatchSummary {
  id: string;
  agentId: string;
  count: number;
  createdAt: string;
}

export function presentBatch(batch: LocalRunBatch): LocalRunBatchSummary {
  return { id: batch.id, agentId: batch.agentId, count: batch.runIds.length, createdAt: batch.createdAt.toISOString() };
}

/** The workspace's local-runner batches, newest first, a page at a time. */
export async function listLocalRunBatches(
  em: EntityManager,
  workspaceId: string,
  query: { limit: number; cursor?: string },
): Promise<{ batches: LocalRunBatchSummary[]; nextCursor: string | null }> {
  const page = await findPage(em, LocalRunBatch, { workspaceId }, query);
  return { batches: page.items.map(presentBatch), nextCursor: page.nextCursor };
}

/**
 * One batch with its runs' ids, in the order the runner reported them.
 * @throws `not_found` for a batch not of the workspace
 */
export async function getLocalRunBatch(
  em: EntityManager,
  workspaceId: string,
  id: string,
): Promise<LocalRunBatchSummary & { runIds: string[] }> {
  const batch = await em.findOne(LocalRunBatch, { id, workspaceId });
  if (!batch) throw errors.notFound('Local run batch');
  return { ...presentBatch(batch), runIds: batch.runIds };
}
