import { WorkflowNotFoundError } from '@temporalio/client';
import type { Orm } from '../../db/orm';
import { runWorkflowId } from '../../workflows/messages';
import { RunFailure } from '../../workflows/failures';
import type { ModelRegistry } from '../models/registry';
import { enqueue, release, relayNow, type RelayDeps } from '../outbox/relay';
import { finishInTransaction } from './execution';
import { announcedRun } from '../webhooks/dispatch';

const BATCH = 100;

export interface StuckRunDeps extends RelayDeps {
  orm: Orm;
  models: ModelRegistry;
}

/**
 * Finishes the runs whose read model says they go on while their workflow has closed without
 * finishing them (terminated or reset in Temporal UI, out of history): each ends `failed` with
 * `run.internal_error`, is charged for what it used, and is announced (docs/api/runs.md). Looks at up
 * to 100 unfinished runs left alone for `graceSeconds`, in id order after `after` (the sweep walks the
 * table a batch at a time); each costs one describe of its workflow. A run whose workflow is not
 * found is left to the outbox, which may still start it. Returns how many it finished and where the
 * next batch starts (null: from the beginning).
 */
export async function sweepStuckRuns(
  deps: StuckRunDeps,
  graceSeconds: number,
  after: string | null = null,
): Promise<{ finished: number; next: string | null }> {
  const rows: Array<{ id: string; status: string }> = await deps.orm.em
    .fork()
    .getConnection()
    .execute(
      `select id, status from runs
        where origin = 'temporal' and status in ('queued', 'running', 'needs_input', 'needs_approval', 'needs_review')
          and updated_at < now() - make_interval(secs => ?) and id > ?
        order by id limit ?`,
      [graceSeconds, after ?? '00000000-0000-0000-0000-000000000000', BATCH],
    );
  let finished = 0;
  for (const row of rows) {
    const handle = deps.temporal.client.workflow.getHandle(runWorkflowId(row.id));
    let closedAs: string;
    try {
      const description = await deps.temporal.call(() => handle.describe());
      closedAs = description.status.name;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) continue;
      throw err;
    }
    if (closedAs === 'RUNNING') continue;
    if (await finishStuck(deps, row.id, closedAs)) finished++;
  }
  return { finished, next: rows.length === BATCH ? rows[rows.length - 1].id : null };
}

/** Ends one stuck run as failed with its charge and its announcement, in one transaction. */
async function finishStuck(deps: StuckRunDeps, runId: string, closedAs: string): Promise<boolean> {
  const em = deps.orm.em.fork();
  const outcome = await em.transactional(async (tx) => {
    const run = await finishInTransaction(tx, deps.models, runId, {
      status: 'failed',
      error: { code: RunFailure.internal, message: `The run's workflow ended (${closedAs}) before the run did` },
      pendingAction: null,
    });
    if (run.status !== 'failed' || run.error?.code !== RunFailure.internal) return null;
    return enqueue(
      tx,
      { kind: 'announce_run', run: announcedRun(run), taskQueue: deps.config.temporal.taskQueue },
      {
        held: true,
      },
    );
  });
  if (!outcome) return false;
  await relayNow(deps, em, outcome).catch((err) => release(em, [outcome.id], err));
  return true;
}
