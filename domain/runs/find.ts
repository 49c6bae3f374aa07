import type { EntityManager } from '@mikro-orm/postgresql';
import { Run } from '../../db/entities/Run';
import { RunStep } from '../../db/entities/RunStep';
import { errors } from '../errors';
import { findPage } from '../pagination';
import type { RunStatus } from '../../workflows/messages';

/** Loads a run of the caller's workspace; another workspace's id is 404, never 403 (docs/api/errors.md). */
export async function findRun(em: EntityManager, workspaceId: string, id: string): Promise<Run> {
  const run = await em.findOne(Run, { id, workspaceId });
  if (!run) throw errors.notFound('Run');
  return run;
}

/** A page of the workspace's runs, newest first, optionally by status and agent. */
export async function listRuns(
  em: EntityManager,
  workspaceId: string,
  query: { limit: number; cursor?: string; status?: RunStatus; agentId?: string },
): Promise<{ items: Run[]; nextCursor: string | null }> {
  const where: Record<string, unknown> = { workspaceId };
  if (query.status) where.status = query.status;
  if (query.agentId) where.agentId = query.agentId;
  return findPage(em, Run, where, query);
}

/** The steps of a run in order. */
export function listSteps(em: EntityManager, runId: string): Promise<RunStep[]> {
  return em.find(RunStep, { runId }, { orderBy: { index: 'asc' } });
}
