import type { EntityManager } from '@mikro-orm/postgresql';
import { ConversationMessage } from '../../db/entities/ConversationMessage';
import { WhatsAppConversation } from '../../db/entities/WhatsAppConversation';
import { WhatsAppReply } from '../../db/entities/WhatsAppReply';
import { errors } from '../errors';
import { deliverReply, type ReplyDeps } from './replies';
import { GraphError } from './graph';

/**
 * Sends a failed reply again (docs/api/whatsapp.md#redelivering-a-reply), one attempt now, under the rules of a
 * first send (the 24-hour window, the account's template); answers how it went. Throws `not_found` for a
 * conversation or message of no conversation of the workspace (or a contact's message), `conflict` with
 * `details.status` for a reply that has not failed.
 */
export async function redeliverReply(
  em: EntityManager,
  deps: ReplyDeps,
  workspaceId: string,
  conversationId: string,
  messageId: string,
): Promise<{ status: 'sent' | 'failed'; error: string | null }> {
  const link = await em.findOne(WhatsAppConversation, { id: conversationId, workspaceId });
  const message = link
    ? await em.findOne(ConversationMessage, { id: messageId, conversationId, role: 'assistant' })
    : null;
  if (!link || !message) throw errors.notFound('Message');
  const reply = await em.findOne(WhatsAppReply, { conversationId, replySeq: message.seq });
  const status = reply?.status ?? 'pending';
  if (status !== 'failed')
    throw errors.conflict(`Only a failed reply can be redelivered; this one is ${status}`, { status });
  try {
    if ((await deliverReply(em.fork(), deps, conversationId, message.seq)) === 'sent') {
      await em.nativeUpdate(ConversationMessage, { id: message.id }, { deliveredAt: new Date() });
      return { status: 'sent', error: null };
    }
  } catch (err) {
    // a passing failure: recorded `failed` like any, and it may be redelivered again
    if (!(err instanceof GraphError)) throw err;
  }
  const after = await em.fork().findOne(WhatsAppReply, { conversationId, replySeq: message.seq });
  return { status: 'failed', error: after?.error ?? null };
}
