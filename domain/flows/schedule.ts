import type { EntityManager } from '@mikro-orm/postgresql';
import { ScheduleAlreadyRunning, ScheduleNotFoundError, type Client } from '@temporalio/client';
import { Flow } from '../../db/entities/Flow';
import { flowScheduleId } from '../../workflows/flowMessages';
import { flowScheduleWorkflow } from '../../workflows/flowScheduleWorkflow';
import { SvcWorkspaceId } from '../../workflows/searchAttributes';

/**
 * Makes the Temporal Schedule `flow-schedule-<flowId>` match the flow as it is now in PostgreSQL
 * (docs/api/flows.md#schedule): created or updated for a schedule trigger, paused while the flow is
 * paused, deleted when the flow is gone or has another trigger. It reads the current row every time, so
 * the outbox may repeat or reorder these calls and the last one still leaves the right schedule.
 */
export async function syncFlowSchedule(
  em: EntityManager,
  client: Client,
  taskQueue: string,
  flowId: string,
): Promise<void> {
  const flow = await em.findOne(Flow, flowId, { refresh: true });
  const handle = client.schedule.getHandle(flowScheduleId(flowId));
  if (!flow || flow.trigger.type !== 'schedule' || !flow.trigger.cron) {
    await handle.delete().catch((err: unknown) => {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    });
    return;
  }
  const spec = { cronExpressions: [flow.trigger.cron], timezone: flow.trigger.timezone ?? 'UTC' };
  const action = {
    type: 'startWorkflow' as const,
    workflowType: flowScheduleWorkflow,
    workflowId: `flow-tick-${flow.id}`,
    taskQueue,
    args: [{ flowId: flow.id }] as Parameters<typeof flowScheduleWorkflow>,
    typedSearchAttributes: [{ key: SvcWorkspaceId, value: flow.workspaceId }],
  };
  const paused = flow.status === 'paused';
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await handle.update((prev) => ({ ...prev, spec, action, state: { ...prev.state, paused } }));
      return;
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
    try {
      await client.schedule.create({
        scheduleId: flowScheduleId(flow.id),
        spec,
        action,
        state: { paused },
        typedSearchAttributes: [{ key: SvcWorkspaceId, value: flow.workspaceId }],
      });
      return;
    } catch (err) {
      // made meanwhile by a concurrent call: update it instead
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    }
  }
}
