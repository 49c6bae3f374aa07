import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Orm } from '../db/orm';
import { retentionDaysByPlan } from '../domain/retention/policy';
import { purgeExpired } from '../domain/retention/purge';
import type { Config } from '../platform/config';
import type { RetentionActivities } from '../workflows/activityTypes';
import { RETENTION_SWEEP_TABLES, type RetentionTable } from '../workflows/retentionWorkflow';

/** The retention sweep's activities: Temporal's side of domain/retention/ (a heartbeat per batch, cancellation). */
export function createRetentionActivities(deps: { orm: Orm; config: Config }): RetentionActivities {
  return {
    async purgeExpiredRows(table) {
      if (!(RETENTION_SWEEP_TABLES as readonly string[]).includes(table)) {
        throw ApplicationFailure.create({ type: 'retention.unknown_table', message: table, nonRetryable: true });
      }
      const ctx = Context.current();
      return purgeExpired(deps.orm.em.fork(), table as RetentionTable, {
        daysByPlan: retentionDaysByPlan(deps.config.retention.days),
        batchSize: deps.config.retention.batchSize,
        onBatch: (deleted) => {
          ctx.heartbeat(deleted);
          // between two batches, each committed: a cancelled sweep stops here and keeps what it deleted
          if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
        },
      });
    },
  };
}
