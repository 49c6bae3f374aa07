import type { EntityManager } from '@mikro-orm/postgresql';
import { Run } from '../../db/entities/Run';
import { RunShare } from '../../db/entities/RunShare';
import { RunStep } from '../../db/entities/RunStep';
import { errors } from '../errors';
import { newOpaqueToken, sha256Hex } from '../identity/secrets';
import { findRun } from './find';

/** The most steps a shared dashboard shows (the first ones, in order). */
export const SHARED_STEPS_LIMIT = 500;

/** A token is 32 random bytes, base64url: 43 characters. Anything else is unknown without a look-up. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export interface SharedRunView {
  id: string;
  status: Run['status'];
  output: unknown;
  steps: Array<{
    index: number;
    type: RunStep['type'];
    status: RunStep['status'];
    startedAt: string;
    completedAt: string | null;
  }>;
  completedAt: string | null;
}

/**
 * Shares a run's dashboard: a new random token, kept as its SHA-256 only, so it is shown here once. Sharing
 * a shared run again replaces its token (the old link stops working at once): the token cannot be shown twice.
 * @throws `not_found` for a run not of the workspace
 */
export async function shareRun(
  em: EntityManager,
  workspaceId: string,
  runId: string,
  publicUrl: string,
): Promise<{ url: string; token: string }> {
  const run = await findRun(em, workspaceId, runId);
  const token = newOpaqueToken();
  const share = new RunShare(workspaceId, run.id, sha256Hex(token));
  await em.getConnection().execute(
    `insert into run_shares (id, created_at, updated_at, workspace_id, run_id, token_hash) values (?, ?, ?, ?, ?, ?)
     on conflict (run_id) do update set token_hash = excluded.token_hash, updated_at = excluded.updated_at`,
    [share.id, share.createdAt, share.createdAt, workspaceId, run.id, share.tokenHash],
  );
  return { url: `${publicUrl.replace(/(?<!\/)\/+$/, '')}/shared/runs/${token}`, token };
}

/**
 * Stops sharing a run: its link answers 404 from now on.
 * @throws `not_found` for a run not of the workspace, or one that is not shared
 */
export async function unshareRun(em: EntityManager, workspaceId: string, runId: string): Promise<void> {
  const run = await findRun(em, workspaceId, runId);
  const removed = await em.nativeDelete(RunShare, { runId: run.id, workspaceId });
  if (removed === 0) throw errors.notFound('Run share');
}

/**
 * What a shared link shows, without a credential: the run's id, status, output, steps (without their
 * details, which can carry tool arguments and results) and completion time, and nothing else of the workspace.
 * @throws `not_found` for an unknown or revoked token
 */
export async function sharedRun(em: EntityManager, token: string): Promise<SharedRunView> {
  if (!TOKEN_FORMAT.test(token)) throw errors.notFound('Shared run');
  const share = await em.findOne(RunShare, { tokenHash: sha256Hex(token) });
  const run = share && (await em.findOne(Run, { id: share.runId, workspaceId: share.workspaceId }));
  if (!run) throw errors.notFound('Shared run');
  return dashboardView(em, run);
}

/**
 * A run's dashboard for a credentialed caller (`runs:read`): the very view its shared link shows, and
 * whether that link exists now.
 * @throws `not_found` for a run not of the workspace
 */
export async function runDashboard(
  em: EntityManager,
  workspaceId: string,
  runId: string,
): Promise<SharedRunView & { shared: boolean }> {
  const run = await findRun(em, workspaceId, runId);
  const shared = (await em.count(RunShare, { runId: run.id, workspaceId })) > 0;
  return { ...(await dashboardView(em, run)), shared };
}

async function dashboardView(em: EntityManager, run: Run): Promise<SharedRunView> {
  const steps = await em.find(RunStep, { runId: run.id }, { orderBy: { index: 'asc' }, limit: SHARED_STEPS_LIMIT });
  return {
    id: run.id,
    status: run.status,
    output: run.output ?? null,
    steps: steps.map((s) => ({
      index: s.index,
      type: s.type,
      status: s.status,
      startedAt: s.startedAt.toISOString(),
      completedAt: s.completedAt?.toISOString() ?? null,
    })),
    completedAt: run.completedAt?.toISOString() ?? null,
  };
}
