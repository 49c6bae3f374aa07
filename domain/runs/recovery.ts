import { announceRun } from '../webhooks/dispatch';
import { Run } from '../../db/entities/Run';
import type { Orm } from '../../db/orm';
import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/logger';
import { ensureRunWorkflow } from './workflowStarter';
import type { Temporal } from '../../platform/temporal';

const BATCH = 100;

interface RecoveryDeps {
  orm: Orm;
  temporal: Temporal;
  config: Pick<Config, 'temporal'>;
}

/**
 * `POST /v1/runs` commits the run, then starts its workflow (the workflow must find its row). A
 * process killed between the two leaves a run in `queued` with no workflow, which a caller without an
 * Idempotency-Key has no way to revive. This starts the workflow of every such run older than
 * `graceSeconds` (younger ones may still be starting), at most 100 a call, oldest first; a run whose
 * workflow exists (it waits for a worker) costs one refused start. Safe on every API replica at once:
 * the workflow id `run-<id>` admits one start. Returns how many workflows it started.
 */
export async function sweepQueuedRuns(deps: RecoveryDeps, graceSeconds: number): Promise<number> {
  const rows: Array<{ id: string; workspace_id: string; agent_id: string }> = await deps.orm.em
    .fork()
    .getConnection()
    .execute(
      `select id, workspace_id, agent_id from runs
        where status = 'queued' and origin = 'temporal'
          and created_at < now() - make_interval(secs => ?) and created_at > now() - interval '1 day'
        order by created_at limit ?`,
      [graceSeconds, BATCH],
    );
  let started = 0;
  for (const row of rows) {
    const run = { id: row.id, workspaceId: row.workspace_id, agentId: row.agent_id };
    if (await deps.temporal.call(() => ensureRunWorkflow(deps.temporal.client, deps.config.temporal, run))) started++;
  }
  return started;
}

/**
 * Announces the webhooks of runs that have no workflow to do it (CONTRACT §5: runs a local runner
 * reported send theirs like any other; a run whose workflow could not start ends `failed`, spec §6) and
 * clears the `announcePending` mark of those announced, in one statement. Throws when Temporal cannot
 * take an announcement; the rest keep their mark for the sweep below. Announcing a run twice sends
 * nothing twice: its deliveries are recorded once per (subscription, event), and only pending ones go out.
 */
export async function announceRuns(deps: RecoveryDeps, runs: Run[]): Promise<void> {
  const announced: string[] = [];
  try {
    for (const run of runs) {
      await deps.temporal.call(() =>
        announceRun(deps.orm.em.fork(), deps.temporal.client, deps.config.temporal.taskQueue, run),
      );
      announced.push(run.id);
    }
  } finally {
    if (announced.length) {
      await deps.orm.em.fork().nativeUpdate(Run, { id: { $in: announced } }, { announcePending: false });
    }
  }
}

/** Announces the runs a request left marked (Temporal was down, or the process died); see announceRuns. */
export async function sweepUnannouncedRuns(deps: RecoveryDeps, graceSeconds: number): Promise<number> {
  const runs = await deps.orm.em
    .fork()
    .find(
      Run,
      { announcePending: true, createdAt: { $lt: new Date(Date.now() - graceSeconds * 1000) } },
      { orderBy: { createdAt: 'asc' }, limit: BATCH },
    );
  await announceRuns(deps, runs);
  return runs.length;
}

/**
 * Runs both sweeps every `config.recoverySweepSeconds` in an API process; `stop()` ends it. An outage
 * of PostgreSQL or Temporal only makes a sweep fail; the next one tries again.
 */
export function startRunRecovery(deps: RecoveryDeps & { logger: Logger; config: Config }): { stop(): void } {
  const seconds = deps.config.recoverySweepSeconds;
  if (seconds === 0) return { stop() {} };
  let busy = false;
  const sweep = async () => {
    const started = await sweepQueuedRuns(deps, seconds);
    if (started) deps.logger.warn({ started }, 'started the workflows of runs left queued without one');
    const announced = await sweepUnannouncedRuns(deps, seconds);
    if (announced) deps.logger.warn({ announced }, 'announced the webhooks of runs a request left unannounced');
  };
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    sweep()
      .catch((err: Error) => deps.logger.warn({ err: { type: err.name, message: err.message } }, 'run recovery failed'))
      .finally(() => {
        busy = false;
      });
  }, seconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
