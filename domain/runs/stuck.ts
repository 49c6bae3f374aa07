import type { Orm } from '../../db/orm';
import { RunFailure } from '../../workflows/failures';
import type { ModelRegistry } from '../models/registry';
import { enqueue, release, relayNow, type RelayDeps } from '../shared/outbox/relay';
import { finishInTransaction } from './execution';
import { announcedRun } from '../webhooks/dispatch';

const BATCH = 100;
// A sweep runs every few seconds; a day of closed workflows is far more than it can fall behind.
const LOOKBACK_MS = 24 * 3600 * 1000;
const UNFINISHED = ['queued', 'running', 'needs_input', 'needs_approval', 'needs_review'];

export interface StuckRunDeps extends RelayDeps {
  orm: Orm;
  models: ModelRegistry;
}

/**
 * Finishes the runs whose read model says they go on while their workflow has closed without
 * finishing them (terminated or reset in Temporal UI, out of history): each ends `failed` with
 * `run.internal_error`, is charged for what it used, and is announced (docs/api/runs.md).
 *
 * One visibility query finds them, whatever the number of runs that legitimately wait: closed run
 * workflows whose `SvcRunStatus` search attribute (kept current by the workflow, terminal before it
 * ends normally) still names an unfinished status. At most 100 a call; the read model then confirms
 * which are still unfinished, so a run finished by an earlier sweep is left alone. Returns how many it
 * finished.
 */
export async function sweepStuckRuns(deps: StuckRunDeps): Promise<number> {
  const since = new Date(Date.now() - LOOKBACK_MS).toISOString();
  const query =
    `WorkflowType = 'runWorkflow' AND ExecutionStatus != 'Running' AND CloseTime > '${since}' ` +
    `AND SvcRunStatus IN (${UNFINISHED.map((s) => `'${s}'`).join(', ')})`;
  const closed = new Map<string, string>();
  await deps.temporal.call(async () => {
    for await (const wf of deps.temporal.client.workflow.list({ query, pageSize: BATCH })) {
      if (wf.workflowId.startsWith('run-')) closed.set(wf.workflowId.slice('run-'.length), wf.status.name);
      if (closed.size >= BATCH) break;
    }
  });
  if (closed.size === 0) return 0;
  const rows: Array<{ id: string }> = await deps.orm.em
    .fork()
    .getConnection()
    .execute(`select id from runs where id in (?) and origin = 'temporal' and status in (?)`, [
      [...closed.keys()],
      UNFINISHED,
    ]);
  let finished = 0;
  for (const row of rows) if (await finishStuck(deps, row.id, closed.get(row.id)!)) finished++;
  return finished;
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
      { held: true },
    );
  });
  if (!outcome) return false;
  await relayNow(deps, em, outcome).catch((err) => release(em, [outcome.id], err));
  return true;
}
