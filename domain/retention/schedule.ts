import { ScheduleAlreadyRunning, ScheduleNotFoundError, type Client } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { SecretError } from '../../platform/secrets';
import type { Temporal } from '../../platform/temporal';
import { RETENTION_SCHEDULE_ID, retentionWorkflow } from '../../workflows/retentionWorkflow';
import { namespaceRetentionDays } from './policy';

/**
 * Makes the Temporal Schedule `retention` start one sweep a day at 03:17 UTC (docs/operations.md#retention),
 * created or brought to this code's shape; every worker process calls it on start, so it is idempotent. The
 * sweep belongs to no workspace, so it carries no `SvcWorkspaceId`. A sweep still running when the next is
 * due makes the next one skip (the schedule's default overlap policy). A schedule whose stored action this
 * process cannot read (its payload sealed under a key the ring no longer holds) is deleted and made anew: every
 * field of it comes from this code, and left alone it would start sweeps no worker can decode.
 */
export async function syncRetentionSchedule(client: Client, taskQueue: string): Promise<void> {
  const spec = { calendars: [{ hour: 3, minute: 17 }] };
  const action = {
    type: 'startWorkflow' as const,
    workflowType: retentionWorkflow,
    workflowId: RETENTION_SCHEDULE_ID,
    taskQueue,
    args: [{}] as Parameters<typeof retentionWorkflow>,
  };
  const handle = client.schedule.getHandle(RETENTION_SCHEDULE_ID);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await handle.update((prev) => ({ ...prev, spec, action }));
      return;
    } catch (err) {
      if (err instanceof SecretError) await handle.delete().catch(ignoreNotFound);
      else if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
    try {
      await client.schedule.create({ scheduleId: RETENTION_SCHEDULE_ID, spec, action });
      return;
    } catch (err) {
      // made meanwhile by another worker: update it instead
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    }
  }
}

function ignoreNotFound(err: unknown): void {
  // deleted meanwhile by another worker doing the same
  if (!(err instanceof ScheduleNotFoundError)) throw err;
}

/**
 * Sets the namespace's retention of closed workflow histories to match the data's
 * (`namespaceRetentionDays`): a history holds a run's payloads, so it goes no later than the run's events of
 * the shortest plan. Returns the days set.
 */
export async function syncNamespaceRetention(
  temporal: Temporal,
  namespace: string,
  override?: number,
): Promise<number> {
  const days = namespaceRetentionDays(override);
  await temporal.call(() =>
    temporal.client.workflowService.updateNamespace({
      namespace,
      config: { workflowExecutionRetentionTtl: msToTs(days * 24 * 3600 * 1000) },
    }),
  );
  return days;
}
