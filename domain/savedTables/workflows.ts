import { ScheduleNotFoundError, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Config } from '../../platform/config';
import { savedTableWorkflowId, type savedTableRefreshWorkflow } from '../../workflows/savedTableRefresh';
import { SvcWorkspaceId } from '../../workflows/searchAttributes';

type Table = { id: string; workspaceId: string };

/**
 * Starts a refresh (`saved-table-<id>`, tagged with the workspace for Temporal UI filters); while one
 * runs, a second request joins it rather than starting another.
 */
export async function startRefresh(client: Client, config: Config['temporal'], table: Table): Promise<void> {
  await client.workflow.start<typeof savedTableRefreshWorkflow>('savedTableRefreshWorkflow', {
    workflowId: savedTableWorkflowId(table.id),
    taskQueue: config.taskQueue,
    args: [table.id],
    workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: [{ key: SvcWorkspaceId, value: table.workspaceId }],
  });
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
      workflowType: 'savedTableRefreshWorkflow',
      workflowId: savedTableWorkflowId(table.id),
      taskQueue: config.taskQueue,
      args: [table.id],
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
