import { proxyActivities } from '@temporalio/workflow';
import type { RetentionActivities } from './activityTypes';
import { STORE_WRITES } from './retryPolicies';

// A table's sweep heartbeats after every batch; a worker that dies is noticed within a minute, and the next
// attempt starts over from the oldest row, which the batches before left deleted.
const { purgeExpiredRows } = proxyActivities<RetentionActivities>({
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '1 minute',
  retry: STORE_WRITES,
});

/** The tables in the order the sweep takes them: a webhook delivery before the event it refers to. */
export const RETENTION_SWEEP_TABLES = [
  'run_events',
  'webhook_deliveries',
  'webhook_events',
  'conversation_messages',
  'outbox',
] as const;

export type RetentionTable = (typeof RETENTION_SWEEP_TABLES)[number];

export interface RetentionSweepArgs {
  /** Some of the tables only (an operator's one-off sweep); all of them by default. */
  tables?: readonly RetentionTable[];
}

/** The schedule that starts the sweep once a day, and the id of each sweep it starts. */
export const RETENTION_SCHEDULE_ID = 'retention';

/**
 * One retention sweep (docs/operations.md#retention): each table in turn, one activity each. Returns the
 * rows deleted per table, which Temporal UI shows as the workflow's result.
 */
export async function retentionWorkflow({ tables = RETENTION_SWEEP_TABLES }: RetentionSweepArgs = {}): Promise<
  Record<string, number>
> {
  const deleted: Record<string, number> = {};
  for (const table of tables) deleted[table] = await purgeExpiredRows(table);
  return deleted;
}
