import { startChild, type ChildWorkflowHandle } from '@temporalio/workflow';
import { runWorkflowId } from './messages';
import { runWorkflow } from './runWorkflow';
import { SvcAgentId, SvcRunStatus, SvcWorkspaceId } from './searchAttributes';

/** A run that another workflow starts as its child, made beforehand by one of its activities. */
export interface ChildRun {
  runId: string;
  workspaceId: string;
  agentId: string;
}

/**
 * Starts a run's workflow `run-<id>` as a child of the calling workflow (a flow's agent step, an eval's
 * case, a conversation's turn), tagged like every run for Temporal UI filters. Rejects with
 * WorkflowExecutionAlreadyStartedError when the run's workflow exists already.
 */
export function startChildRun(run: ChildRun): Promise<ChildWorkflowHandle<typeof runWorkflow>> {
  return startChild(runWorkflow, {
    workflowId: runWorkflowId(run.runId),
    args: [{ runId: run.runId }],
    typedSearchAttributes: [
      { key: SvcWorkspaceId, value: run.workspaceId },
      { key: SvcAgentId, value: run.agentId },
      { key: SvcRunStatus, value: 'queued' },
    ],
  });
}
