import type { Orm } from '../../db/orm';
import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/logger';
import { createModelRegistry, type ModelRegistry } from '../models/registry';
import { sweepOutbox, type RelayDeps } from '../shared/outbox/relay';
import { sweepStuckRuns } from './stuck';
import { deleteExpiredKeys } from '../shared/idempotency/keys';

interface RecoveryDeps extends RelayDeps {
  orm: Orm;
}

/**
 * Starts the workflows of runs whose create committed but whose start its request could not make (a
 * killed API process, Temporal too slow): the `start_run` rows of the outbox older than `graceSeconds`.
 * Returns how many it made.
 */
export function sweepQueuedRuns(deps: RecoveryDeps, graceSeconds: number): Promise<number> {
  return sweepOutbox(deps, graceSeconds, ['start_run']);
}

/** Makes the webhook announcements a request left in the outbox (Temporal was down, or the process died). */
export function sweepUnannouncedRuns(deps: RecoveryDeps, graceSeconds: number): Promise<number> {
  return sweepOutbox(deps, graceSeconds, ['announce_run']);
}

/**
 * The recovery of an API process, every `config.recoverySweepSeconds`: the outbox relay makes the
 * Temporal calls that requests committed but could not make (sweepOutbox), then a batch of unfinished
 * runs is checked against their workflows (sweepStuckRuns), and expired idempotency keys are deleted. `stop()` ends it. An outage of PostgreSQL
 * or Temporal only makes a sweep fail; the next one tries again.
 */
export function startRunRecovery(deps: RecoveryDeps & { logger: Logger; config: Config; models?: ModelRegistry }): {
  stop(): void;
} {
  const seconds = deps.config.recoverySweepSeconds;
  if (seconds === 0) return { stop() {} };
  const models = deps.models ?? createModelRegistry(deps.config.openai);
  let busy = false;
  const sweep = async () => {
    const made = await sweepOutbox(deps, seconds);
    if (made) deps.logger.warn({ made }, 'made the Temporal calls that requests left in the outbox');
    const finished = await sweepStuckRuns({ ...deps, models });
    if (finished) deps.logger.warn({ finished }, 'failed the runs whose workflow had closed');
    // Housekeeping rides along: idempotency keys past their 24 hours.
    await deleteExpiredKeys(deps.orm.em.fork());
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
