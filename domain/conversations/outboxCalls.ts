import { conversationWorkflowId, endSignal, inboundSignal } from '../../workflows/conversationMessages';
import { whileOpen, type OutboxHandlers } from '../shared/outbox/calls';
import { ensureConversationWorkflow } from './workflowStarter';

/** The outbox calls of conversations: start a conversation's workflow, signal it a message or its end. */
export const conversationOutboxCalls: OutboxHandlers = {
  start_conversation: async ({ temporal }, call) => {
    await ensureConversationWorkflow(temporal.client, call);
  },
  signal_conversation: async ({ temporal }, call) => {
    const handle = temporal.client.workflow.getHandle(conversationWorkflowId(call.conversationId));
    await whileOpen(() =>
      call.signal === 'inbound' ? handle.signal(inboundSignal, call.payload) : handle.signal(endSignal, call.payload),
    );
  },
};
