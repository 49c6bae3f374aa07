import { flowApprovalSignal, flowWorkflowId } from '../../workflows/flowMessages';
import { whileOpen, type OutboxHandlers } from '../shared/outbox/calls';
import { syncFlowSchedule } from './schedule';
import { ensureFlowWorkflow } from './workflowStarter';

/** The outbox calls of flows: start, signal and cancel a flow run's workflow, sync a flow's schedule. */
export const flowOutboxCalls: OutboxHandlers = {
  start_flow: async ({ temporal }, call) => {
    await ensureFlowWorkflow(temporal.client, call.taskQueue, call);
  },
  signal_flow: async ({ temporal }, call) => {
    await whileOpen(() =>
      temporal.client.workflow.getHandle(flowWorkflowId(call.flowRunId)).signal(flowApprovalSignal, call.payload),
    );
  },
  cancel_flow: async ({ temporal }, call) => {
    await whileOpen(async () => {
      await temporal.client.workflow.getHandle(flowWorkflowId(call.flowRunId)).cancel();
    });
  },
  sync_flow_schedule: async ({ temporal, em }, call) => {
    await syncFlowSchedule(em.fork(), temporal.client, call.taskQueue, call.flowId);
  },
};
