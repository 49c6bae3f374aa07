import { randomUUID } from 'node:crypto';
import type { Channel } from '../../db/entities/Conversation';
import { takeTurn, type ConversationDeps, type TurnReply } from '../conversations';
import { ApiError } from '../errors';
import type { Identity } from '../identity/identity';
import { copilotConversation } from './conversation';
import { onBehalfOfCaller } from '../runs/runGate';

/**
 * One copilot turn in the right conversation: the message id is the request's Idempotency-Key (else a
 * fresh one). The caller's conversation that ended (idle) since it was picked is replaced by a new one.
 */
export async function copilotTurn(
  deps: ConversationDeps,
  identity: Identity,
  req: {
    channel: Channel;
    subjectId: string;
    context: Record<string, unknown>;
    text: string;
    conversationId?: string;
    messageId: string | null;
  },
): Promise<TurnReply & { conversationId: string }> {
  const messageId = req.messageId ?? randomUUID();
  for (let attempt = 0; ; attempt++) {
    const conversation = await copilotConversation(
      deps,
      identity,
      req.channel,
      req.subjectId,
      req.context,
      req.conversationId,
    );
    try {
      const turn = await takeTurn(deps, {
        workspaceId: identity.workspaceId,
        conversationId: conversation.id,
        messageId,
        text: req.text,
        onBehalfOf: onBehalfOfCaller(identity),
      });
      return { ...turn, conversationId: conversation.id };
    } catch (err) {
      const endedMeanwhile = err instanceof ApiError && err.code === 'conflict' && !req.conversationId;
      if (!endedMeanwhile || attempt > 0) throw err;
    }
  }
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
