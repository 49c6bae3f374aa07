import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { conversationWorkflow } from '../../workflows/conversationWorkflow';
import { conversationWorkflowId } from '../../workflows/conversationMessages';
import { SvcAgentId, SvcWorkspaceId } from '../../workflows/searchAttributes';

/**
 * Starts the conversation's workflow (`conversation-<id>` on the runs task queue), tagged for Temporal UI
 * filters; one that already exists is left alone (the outbox may repeat the call).
 */
export async function ensureConversationWorkflow(
  client: Client,
  start: {
    conversationId: string;
    workspaceId: string;
    agentId: string;
    taskQueue: string;
    idleMs: number;
    turnsPerRun: number;
  },
): Promise<void> {
  try {
    await client.workflow.start(conversationWorkflow, {
      workflowId: conversationWorkflowId(start.conversationId),
      taskQueue: start.taskQueue,
      args: [{ conversationId: start.conversationId, idleMs: start.idleMs, turnsPerRun: start.turnsPerRun }],
      typedSearchAttributes: [
        { key: SvcWorkspaceId, value: start.workspaceId },
        { key: SvcAgentId, value: start.agentId },
      ],
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
