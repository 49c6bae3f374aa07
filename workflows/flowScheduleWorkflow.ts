import { ParentClosePolicy, proxyActivities, startChild, workflowInfo } from '@temporalio/workflow';
import { flowWorkflowId, type FlowActivities } from './flowMessages';
import { flowWorkflow } from './flowWorkflow';
import { STORE_WRITES } from './retryPolicies';
import { SvcWorkspaceId } from './searchAttributes';

const store = proxyActivities<FlowActivities>({ startToCloseTimeout: '30 seconds', retry: STORE_WRITES });

export interface FlowScheduleArgs {
  flowId: string;
}

/**
 * What a flow's Temporal Schedule starts on each tick (docs/api/flows.md#schedule): a flow run made by
 * an activity keyed by this tick, then its workflow `flow-<id>`, left to run on its own.
 */
export async function flowScheduleWorkflow({ flowId }: FlowScheduleArgs): Promise<string | null> {
  const made = await store.createScheduledFlowRun(flowId, workflowInfo().workflowId);
  if (!made) return null;
  await startChild(flowWorkflow, {
    workflowId: flowWorkflowId(made.flowRunId),
    args: [{ flowRunId: made.flowRunId }],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    typedSearchAttributes: [{ key: SvcWorkspaceId, value: made.workspaceId }],
  });
  return made.flowRunId;
}
