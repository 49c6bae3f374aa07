import type { EntityManager, AbstractSqlConnection } from '@mikro-orm/postgresql';
import { Run } from '../../db/entities/Run';
import { RunStep } from '../../db/entities/RunStep';
import { errors } from '../errors';
import { decodePositionCursor, encodePositionCursor, findPage } from '../pagination';
import type { RunStatus } from '../../workflows/messages';
import { pooledRows } from '../../platform/database/rows';
import type { RunView } from './presenters';
import { runViewJson } from './statusWrites';

/** Loads a run of the caller's workspace; another workspace's id is 404, never 403 (docs/api/errors.md). */
export async function findRun(em: EntityManager, workspaceId: string, id: string): Promise<Run> {
  const run = await em.findOne(Run, { id, workspaceId });
  if (!run) throw errors.notFound('Run');
  return run;
}

/**
 * `findRun` and `serializeRun` in one statement, without building the entity: `GET /v1/runs/{id}` is
 * the read that callers poll, and hydrating a run (identity map, change-set snapshot) cost more than the
 * query itself (bench/README.md, case 4). The view is built by PostgreSQL as a status change's event
 * builds it (statusWrites.ts, `runViewJson`, held equal to presentRun by test/runs/statusView.test.ts).
 * Same 404. On the shared connection's pool, through `pg` alone (platform/database/rows.ts): no
 * EntityManager is needed, so the request forks none.
 */
export async function findRunView(db: AbstractSqlConnection, workspaceId: string, id: string): Promise<RunView> {
  const rows = await pooledRows<{ view: RunView }>(db, {
    name: 'svc_run_view',
    text: RUN_VIEW,
    values: [id, workspaceId],
  });
  if (!rows[0]) throw errors.notFound('Run');
  return rows[0].view;
}

// Named: each pooled connection parses and plans the view's expression once, not on every request.
const RUN_VIEW = `select ${runViewJson('r')} as view from runs r where r.id = $1 and r.workspace_id = $2`;

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

/**
 * A page of a run's steps in order (by index, oldest first): a long run has thousands, so they page like
 * every list, the cursor being the last index served.
 */
export async function listSteps(
  em: EntityManager,
  runId: string,
  query: { limit: number; cursor?: string },
): Promise<{ items: RunStep[]; nextCursor: string | null }> {
  const after = decodePositionCursor(query.cursor);
  const rows = await em.find(RunStep, after === undefined ? { runId } : { runId, index: { $gt: after } }, {
    orderBy: { index: 'asc' },
    limit: query.limit + 1,
  });
  const items = rows.slice(0, query.limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > query.limit ? encodePositionCursor(last.index) : null };
}
