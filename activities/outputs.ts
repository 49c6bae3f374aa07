import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Orm } from '../db/orm';
import { ApiError } from '../domain/errors';
import {
  attemptOutputDelivery,
  failOutputDelivery,
  recordOutputDelivery,
  type DeliveryOptions,
} from '../domain/outputs/delivery';
import { recordRunOutputs } from '../domain/outputs/runOutputs';
import type { OutputActivities } from '../workflows/activityTypes';

/** ApplicationFailure types of the output activities. */
export const OutputFailure = {
  /** The connection was deleted (or never was one of the workspace): no further attempt (non-retryable). */
  connectionGone: 'output.connection_gone',
  /** A saved table connection's table was deleted: the delivery is `failed` (non-retryable). */
  targetGone: 'output.saved_table_gone',
  /** The receiver did not take this attempt; Temporal's retry policy makes the next one. */
  attemptFailed: 'output.attempt_failed',
} as const;

const gone = (message: string) =>
  ApplicationFailure.create({ type: OutputFailure.connectionGone, message, nonRetryable: true });

/**
 * The save-output activities (docs/api/output-connections.md): recording an output, one attempt, and the
 * mark of a delivery that failed. Registered on both task queues, so a workflow finds them whichever it names.
 */
export function createOutputActivities(deps: { orm: Orm } & DeliveryOptions) {
  const { orm, ...opts } = deps;
  return {
    async recordOutputDelivery(req) {
      try {
        const source = { runId: req.runId, flowRunId: req.flowRunId, key: req.key };
        return await recordOutputDelivery(orm.em.fork(), req.workspaceId, req.connectionId, req.output, source);
      } catch (err) {
        if (err instanceof ApiError && err.code === 'not_found') throw gone('output connection not found');
        throw err;
      }
    },

    async recordRunOutputs(runId) {
      return recordRunOutputs(orm.em.fork(), runId);
    },

    async deliverOutput(deliveryId) {
      const result = await attemptOutputDelivery(orm.em.fork(), deliveryId, Context.current().info.attempt, opts);
      if (result.outcome === 'connection_gone') throw gone('output connection deleted');
      if (result.outcome === 'target_gone') {
        throw ApplicationFailure.create({ type: OutputFailure.targetGone, message: result.error, nonRetryable: true });
      }
      if (result.outcome === 'attempt_failed') {
        throw ApplicationFailure.create({ type: OutputFailure.attemptFailed, message: result.error });
      }
    },

    async failOutputDelivery(deliveryId) {
      await failOutputDelivery(orm.em.fork(), deliveryId);
    },
  } satisfies OutputActivities;
}
