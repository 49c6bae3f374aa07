import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { evalWorkflow } from '../../workflows/evalWorkflow';
import { evalWorkflowId } from '../../workflows/evalMessages';
import { SvcAgentId, SvcWorkspaceId } from '../../workflows/searchAttributes';

/**
 * Starts the eval run's workflow (`eval-<id>` on the runs task queue), tagged for Temporal UI filters;
 * one that already exists is left alone (the outbox may repeat the call).
 */
export async function ensureEvalWorkflow(
  client: Client,
  taskQueue: string,
  run: { id: string; workspaceId: string; agentId: string },
): Promise<void> {
  try {
    await client.workflow.start(evalWorkflow, {
      workflowId: evalWorkflowId(run.id),
      taskQueue,
      args: [{ evalRunId: run.id }],
      typedSearchAttributes: [
        { key: SvcWorkspaceId, value: run.workspaceId },
        { key: SvcAgentId, value: run.agentId },
      ],
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
