import { Conversation } from '../../db/entities/Conversation';
import { enqueue, relayNow, release } from '../shared/outbox/relay';
import type { ConversationDeps } from './deps';
import { findConversation } from './find';

/**
 * Ends a conversation (a request, a hang-up): marks it ended with `reason` and signals its workflow
 * through the outbox, which finishes the turn in progress, if any, and closes. Idempotent: ending an
 * ended conversation changes nothing. Throws `not_found`.
 */
export async function endConversation(
  deps: ConversationDeps,
  req: { workspaceId: string; conversationId: string; reason: string },
): Promise<void> {
  const { em } = deps;
  const conversation = await findConversation(em, req.workspaceId, req.conversationId);
  if (conversation.status === 'ended') return;
  const signal = await em.fork().transactional(async (tx) => {
    const changed = await tx.nativeUpdate(
      Conversation,
      { id: conversation.id, status: 'active' },
      { status: 'ended', endedReason: req.reason, endedAt: new Date(), updatedAt: new Date() },
    );
    if (!changed) return null;
    return enqueue(
      tx,
      { kind: 'signal_conversation', conversationId: conversation.id, signal: 'end', payload: { reason: req.reason } },
      { held: true, dedupeKey: `conv-end:${conversation.id}` },
    );
  });
  if (!signal) return;
  try {
    await relayNow(deps, em, signal);
  } catch (err) {
    await release(em, [signal.id], err);
  }
}
