import type { Config } from './config';
import type { Logger } from './logger';
import { ensureRunWorkflow } from './runStarter';
import type { Temporal } from './temporal';
import type { Orm } from '../db/orm';

const BATCH = 100;

interface SweepDeps {
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
export async function sweepQueuedRuns(deps: SweepDeps, graceSeconds: number): Promise<number> {
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

/** Runs the sweep every `config.queuedRunSweepSeconds` in an API process; `stop()` ends it. */
export function startQueuedRunSweeper(deps: SweepDeps & { logger: Logger; config: Config }): { stop(): void } {
  const seconds = deps.config.queuedRunSweepSeconds;
  if (seconds === 0) return { stop() {} };
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    sweepQueuedRuns(deps, seconds)
      .then((started) => {
        if (started) deps.logger.warn({ started }, 'started the workflows of runs left queued without one');
      })
      // An outage of PostgreSQL or Temporal: the next sweep tries again.
      .catch((err: Error) =>
        deps.logger.warn({ err: { type: err.name, message: err.message } }, 'queued-run sweep failed'),
      )
      .finally(() => {
        busy = false;
      });
  }, seconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
