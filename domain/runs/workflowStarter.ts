import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Config } from '../../platform/config';
import { runWorkflow } from '../../workflows/runWorkflow';
import { runWorkflowId } from '../../workflows/messages';
import { SvcAgentId, SvcRunStatus, SvcWorkspaceId } from '../../workflows/searchAttributes';

/** Starts the run's workflow (`run-<id>` on the runs task queue), tagged for Temporal UI filters. */
export async function startRunWorkflow(
  client: Client,
  config: Config['temporal'],
  run: { id: string; workspaceId: string; agentId: string },
): Promise<void> {
  await client.workflow.start(runWorkflow, {
    workflowId: runWorkflowId(run.id),
    taskQueue: config.taskQueue,
    args: [{ runId: run.id }],
    typedSearchAttributes: [
      { key: SvcWorkspaceId, value: run.workspaceId },
      { key: SvcAgentId, value: run.agentId },
      { key: SvcRunStatus, value: 'queued' },
    ],
  });
}

/**
 * Starts the workflow of a run that may already have one (a replayed create, the queued-run sweep):
 * true when this call started it, false when it was already there.
 */
export async function ensureRunWorkflow(
  client: Client,
  config: Config['temporal'],
  run: { id: string; workspaceId: string; agentId: string },
): Promise<boolean> {
  try {
    await startRunWorkflow(client, config, run);
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}
