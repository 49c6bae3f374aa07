import { approveSignal, inputSignal, reviewSignal, runWorkflowId } from '../../workflows/messages';
import { whileOpen, type OutboxHandlers } from '../shared/outbox/calls';
import { announceRunStatus } from './statusAnnouncement';
import { ensureRunWorkflow } from './workflowStarter';

/** The outbox calls of runs: start, signal and cancel a run's workflow, announce its status. */
export const runOutboxCalls: OutboxHandlers = {
  start_run: async ({ temporal, config }, call) => {
    await ensureRunWorkflow(
      temporal.client,
      { ...config.temporal, taskQueue: call.taskQueue },
      { id: call.runId, workspaceId: call.workspaceId, agentId: call.agentId },
    );
  },
  signal_run: async ({ temporal }, call) => {
    const handle = temporal.client.workflow.getHandle(runWorkflowId(call.runId));
    await whileOpen(() => {
      if (call.signal === 'input') return handle.signal(inputSignal, call.payload);
      if (call.signal === 'approve') return handle.signal(approveSignal, call.payload);
      return handle.signal(reviewSignal, call.payload);
    });
  },
  // Temporal's own cancellation: the workflow turns it into `cancelled` and closes as Canceled.
  cancel_run: async ({ temporal }, call) => {
    await whileOpen(async () => {
      await temporal.client.workflow.getHandle(runWorkflowId(call.runId)).cancel();
    });
  },
  // Local runs and runs that failed to start are announced from here (docs/api/output-connections.md).
  announce_run: async ({ temporal, config, em }, call) => {
    await announceRunStatus(em, temporal.client, call.taskQueue ?? config.temporal.taskQueue, call.run);
  },
};
