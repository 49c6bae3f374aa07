import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { flowWorkflow } from '../../workflows/flowWorkflow';
import { flowWorkflowId } from '../../workflows/flowMessages';
import { SvcWorkspaceId } from '../../workflows/searchAttributes';

/**
 * Starts a flow run's workflow (`flow-<id>`), tagged with its workspace for Temporal UI filters. A
 * second start of the same flow run changes nothing (the outbox may repeat the call after a crash).
 */
export async function ensureFlowWorkflow(
  client: Client,
  taskQueue: string,
  run: { flowRunId: string; workspaceId: string },
): Promise<void> {
  try {
    await client.workflow.start(flowWorkflow, {
      workflowId: flowWorkflowId(run.flowRunId),
      taskQueue,
      args: [{ flowRunId: run.flowRunId }],
      typedSearchAttributes: [{ key: SvcWorkspaceId, value: run.workspaceId }],
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
