import type { EntityManager } from '@mikro-orm/postgresql';
import { ConversationMessage } from '../../db/entities/ConversationMessage';
import { WhatsAppConversation } from '../../db/entities/WhatsAppConversation';
import { WhatsAppReply, type ReplyStatus } from '../../db/entities/WhatsAppReply';
import { secretSlot } from '../../db/secretColumns';
import type { SecretBox } from '../../platform/secrets';
import { GraphError, sendMessage, type GraphDeps, type OutboundContent } from './graph';

/** Meta lets a business answer free-form only within this long of the contact's last message. */
export const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

export const OUTSIDE_WINDOW =
  "Outside WhatsApp's 24-hour customer service window (the contact's last message is older than 24 hours), " +
  'and the account has no template to send instead';

/** What sending a reply needs: the Graph API's settings and the box the account's token is sealed in. */
export interface ReplyDeps {
  graph: GraphDeps;
  box: SecretBox;
}

/** Records how a reply's send ended, replacing what an earlier attempt recorded. */
async function record(
  em: EntityManager,
  conversationId: string,
  replySeq: number,
  outcome: { status: ReplyStatus; messageId: string | null; error: string | null },
): Promise<void> {
  const now = new Date();
  await em
    .createQueryBuilder(WhatsAppReply)
    .insert({ conversationId, replySeq, ...outcome, createdAt: now, updatedAt: now })
    .onConflict(['conversation_id', 'reply_seq'])
    .merge(['status', 'messageId', 'error', 'updatedAt'])
    .execute();
}

/** When the contact last wrote in the conversation, if ever. */
async function lastInbound(em: EntityManager, conversationId: string): Promise<Date | null> {
  const last = await em.findOne(
    ConversationMessage,
    { conversationId, role: 'user' },
    { orderBy: { seq: 'desc' }, fields: ['createdAt'] },
  );
  return last?.createdAt ?? null;
}

/**
 * Sends one assistant reply of a WhatsApp conversation (docs/api/whatsapp.md#replies), once: a reply the Graph
 * API took already is left alone (the Graph API has no idempotency key). Within 24 hours of the contact's last
 * message the reply's text goes out; past that, Meta refuses free-form messages, so the account's template is
 * sent instead, or, with none, the reply is recorded `failed` with the reason. A refusal (4xx) is recorded
 * `failed`; so is a passing failure, which is then thrown for the caller's retry. Answers whether it is sent.
 * @throws {GraphError} retryable: the Graph API answered 5xx, 408 or 429 or could not be reached
 */
export async function deliverReply(
  em: EntityManager,
  deps: ReplyDeps,
  conversationId: string,
  replySeq: number,
): Promise<'sent' | 'failed'> {
  const done = await em.findOne(WhatsAppReply, { conversationId, replySeq });
  if (done && done.status !== 'failed') return 'sent';
  const failed = async (error: string) => {
    await record(em, conversationId, replySeq, { status: 'failed', messageId: null, error: error.slice(0, 2000) });
    return 'failed' as const;
  };
  const link = await em.findOne(WhatsAppConversation, { id: conversationId }, { populate: ['account'] });
  if (!link || link.account.deletedAt) return failed('The WhatsApp account was removed');
  const reply = await em.findOne(ConversationMessage, { conversationId, seq: replySeq, role: 'assistant' });
  if (!reply) return failed('The reply does not exist');
  const since = await lastInbound(em, conversationId);
  const inWindow = since !== null && Date.now() - since.getTime() < SERVICE_WINDOW_MS;
  const template = link.account.template;
  if (!inWindow && !template) return failed(OUTSIDE_WINDOW);
  const content: OutboundContent = inWindow ? { text: reply.text } : { template: template! };
  let messageId: string | null;
  try {
    messageId = await sendMessage(deps.graph, {
      phoneNumberId: link.account.phoneNumberId,
      accessToken: deps.box.open(
        link.account.accessTokenSealed,
        secretSlot('whatsapp_accounts', link.account.id, 'access_token'),
      ),
      to: link.waId,
      content,
    });
  } catch (err) {
    if (!(err instanceof GraphError)) throw err;
    await failed(err.message);
    if (err.retryable) throw err;
    return 'failed';
  }
  await record(em, conversationId, replySeq, { status: 'sent', messageId, error: null });
  return 'sent';
}
