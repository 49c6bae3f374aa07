import type { EntityManager } from '@mikro-orm/postgresql';
import { Agent } from '../../db/entities/Agent';
import { Conversation } from '../../db/entities/Conversation';
import { WhatsAppAccount } from '../../db/entities/WhatsAppAccount';
import { WhatsAppConversation } from '../../db/entities/WhatsAppConversation';
import { deliverInbound, openConversation, type ConversationDeps } from '../conversations';
import { ApiError } from '../errors';
import type { InboundText } from './payload';

/** Whether the account already took a message with this Cloud API id, in any of its conversations. */
async function seenBefore(em: EntityManager, accountId: string, messageId: string): Promise<boolean> {
  const rows = await em.execute<Array<{ found: number }>>(
    `select 1 as found from "conversation_messages" m
       join "whatsapp_conversations" w on w."id" = m."conversation_id"
      where w."account_id" = ? and m."channel_message_id" = ? limit 1`,
    [accountId, messageId],
  );
  return rows.length > 0;
}

/**
 * The active conversation of the account with the contact, opened when there is none. One contact's messages
 * are taken one at a time (a transaction-scoped advisory lock on account and contact), so concurrent posts about
 * a new contact open one conversation, not two.
 */
async function conversationFor(
  deps: ConversationDeps,
  account: WhatsAppAccount,
  waId: string,
  messageId: string,
): Promise<string | null> {
  return deps.em.fork().transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`whatsapp:${account.id}:${waId}`]);
    if (await seenBefore(tx, account.id, messageId)) return null;
    const links = await tx.find(
      WhatsAppConversation,
      { account: account.id, waId },
      { orderBy: { createdAt: 'desc' } },
    );
    const active = links.length
      ? await tx.findOne(Conversation, { id: { $in: links.map((l) => l.id) }, status: 'active' })
      : null;
    if (active) return active.id;
    const opened = await openConversation(
      { ...deps, em: deps.em.fork() },
      {
        workspaceId: account.workspace.id,
        agentId: account.agent.id,
        channel: 'whatsapp',
        channelRef: waId,
        context: { whatsappContact: waId },
      },
    );
    tx.persist(
      new WhatsAppConversation(opened.id, account.workspace.id, tx.getReference(WhatsAppAccount, account.id), waId),
    );
    return opened.id;
  });
}

/**
 * Hands each text message of a webhook post to the contact's conversation (docs/api/whatsapp.md#conversations):
 * the engine records it and takes its turn; the reply goes out through the adapter. A message id seen before is
 * skipped, so a redelivered post is processed once. Answers how many messages were new. When the account's agent
 * was deleted there is no one to answer and nothing is recorded.
 * @throws {ApiError} `unavailable` when Temporal does not take a new conversation's start in time (the Cloud API
 *   redelivers the post later)
 */
export async function receiveMessages(
  deps: ConversationDeps,
  account: WhatsAppAccount,
  messages: InboundText[],
): Promise<number> {
  if (messages.length === 0) return 0;
  const agent = await deps.em.findOne(Agent, { id: account.agent.id, deletedAt: null });
  if (!agent) return 0;
  let received = 0;
  for (const message of messages) {
    // one retry: the conversation found may end (idle) between the lookup and the delivery
    for (let attempt = 0; attempt < 2; attempt++) {
      const conversationId = await conversationFor(deps, account, message.from, message.id);
      if (!conversationId) break;
      try {
        const { duplicate } = await deliverInbound(deps, {
          workspaceId: account.workspace.id,
          conversationId,
          messageId: message.id,
          text: message.text,
        });
        if (!duplicate) received++;
        break;
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 'conflict') || attempt === 1) throw err;
      }
    }
  }
  return received;
}
