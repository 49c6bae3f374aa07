import type { EntityManager } from '@mikro-orm/postgresql';
import { endConversation, openConversation, takeTurn, type ConversationDeps } from '../conversations';
import type { CallEngine } from './engine';

/**
 * Calls on the conversation engine (docs/api/conversations.md): one conversation per call (channel
 * `phone`, `channelRef` the call's id), a synchronous turn per utterance, the end on hang-up.
 */
export function conversationEngine(deps: Omit<ConversationDeps, 'em'>): (em: EntityManager) => CallEngine {
  return (em) => ({
    async open(req) {
      const conversation = await openConversation(
        { ...deps, em },
        {
          workspaceId: req.workspaceId,
          agentId: req.agentId,
          channel: 'phone',
          channelRef: req.callId,
          context: req.context,
        },
      );
      return conversation.id;
    },
    async turn(req) {
      // A caller on the phone has no account here: the workspace pays (docs/api/billing.md#who-pays).
      const onBehalfOf = { kind: 'anonymous', workspaceId: req.workspaceId, reason: 'inbound_message' } as const;
      const { reply, duplicate } = await takeTurn({ ...deps, em }, { ...req, onBehalfOf });
      return { reply, duplicate };
    },
    async end(req) {
      await endConversation({ ...deps, em }, req);
    },
  });
}
