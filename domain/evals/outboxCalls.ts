import type { OutboxHandlers } from '../shared/outbox/calls';
import { ensureEvalWorkflow } from './workflowStarter';

/** The outbox calls of evals: start an eval run's workflow. */
export const evalOutboxCalls: OutboxHandlers = {
  start_eval: async ({ temporal }, call) => {
    await ensureEvalWorkflow(temporal.client, call.taskQueue, {
      id: call.evalRunId,
      workspaceId: call.workspaceId,
      agentId: call.agentId,
    });
  },
};
