import {
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  type Client,
} from '@temporalio/client';
import type { Config } from '../../platform/config';
import { refreshAgainSignal, savedTableRefreshWorkflow, savedTableWorkflowId } from '../../workflows/savedTableRefresh';
import { SvcWorkspaceId } from '../../workflows/searchAttributes';

type Table = { id: string; workspaceId: string };

/**
 * Starts a refresh (`saved-table-<id>`, tagged with the workspace for Temporal UI filters). While one
 * runs, the request signals it to read once more when done: joining it alone would answer a request
 * made after its read with rows read before. A refresh ending between the two calls is why they loop.
 */
export async function startRefresh(client: Client, config: Config['temporal'], table: Table): Promise<void> {
  const workflowId = savedTableWorkflowId(table.id);
  for (let tries = 1; ; tries++) {
    try {
      await client.workflow.start(savedTableRefreshWorkflow, {
        workflowId,
        taskQueue: config.taskQueue,
        args: [{ savedTableId: table.id }],
        typedSearchAttributes: [{ key: SvcWorkspaceId, value: table.workspaceId }],
      });
      return;
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
    try {
      await client.workflow.getHandle(workflowId).signal(refreshAgainSignal);
      return;
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError) || tries === 3) throw err;
    }
  }
}

/**
 * The table's cron as a Temporal Schedule of the same id, whose action is the refresh workflow; a
 * refresh still running when the next is due is skipped, not queued.
 */
export async function createRefreshSchedule(
  client: Client,
  config: Config['temporal'],
  table: Table,
  cron: string,
): Promise<void> {
  await client.schedule.create({
    scheduleId: savedTableWorkflowId(table.id),
    spec: { cronExpressions: [cron] },
    policies: { overlap: ScheduleOverlapPolicy.SKIP },
    action: {
      type: 'startWorkflow',
      workflowType: savedTableRefreshWorkflow,
      workflowId: savedTableWorkflowId(table.id),
      taskQueue: config.taskQueue,
      args: [{ savedTableId: table.id }],
      typedSearchAttributes: [{ key: SvcWorkspaceId, value: table.workspaceId }],
    },
  });
}

/** Deletes the table's schedule; none is fine. */
export async function deleteRefreshSchedule(client: Client, tableId: string): Promise<void> {
  try {
    await client.schedule.getHandle(savedTableWorkflowId(tableId)).delete();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
}
