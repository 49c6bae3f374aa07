import type { EntityManager } from '@mikro-orm/postgresql';
import { Conversation } from '../../db/entities/Conversation';
import { ConversationMessage, type ConversationRole } from '../../db/entities/ConversationMessage';
import { principalColumns, type OnBehalfOf } from '../runs/runGate';

export interface NewMessage {
  role: ConversationRole;
  text: string;
  /** A user message: the channel's id for it. */
  channelMessageId?: string | null;
  /** An assistant message: the run that produced it and the user message it answers. */
  runId?: string | null;
  replyTo?: string | null;
  /** A user message sent through the API: the key or user on whose behalf its turn's run is made. */
  onBehalfOf?: OnBehalfOf;
}

/**
 * Appends a message in the caller's transaction, numbered after the last one: the conversation's row is
 * locked first, so appends to one conversation take turns. A message already there under the same key
 * (a user message's channel id, the message an assistant message answers) is returned instead, with
 * `created: false`. Null when the conversation is gone.
 */
export async function appendMessage(
  tx: EntityManager,
  conversationId: string,
  msg: NewMessage,
): Promise<{ message: ConversationMessage; created: boolean } | null> {
  // tx.execute runs inside the transaction (the connection's execute would not).
  const locked = await tx.execute(`select id from conversations where id = ? for update`, [conversationId]);
  if (locked.length === 0) return null;
  const prior = await existing(tx, conversationId, msg);
  if (prior) return { message: prior, created: false };
  const last = await tx.findOne(ConversationMessage, { conversationId }, { orderBy: { seq: 'desc' }, fields: ['seq'] });
  const message = new ConversationMessage(conversationId, (last?.seq ?? 0) + 1, msg.role, msg.text);
  message.channelMessageId = msg.channelMessageId ?? null;
  message.runId = msg.runId ?? null;
  message.replyTo = msg.replyTo ?? null;
  if (msg.onBehalfOf) Object.assign(message, principalColumns(msg.onBehalfOf));
  tx.persist(message);
  await tx.flush();
  return { message, created: true };
}

/** The message stored under the same key, if any. */
export function existing(em: EntityManager, conversationId: string, msg: NewMessage) {
  if (msg.channelMessageId) {
    return em.findOne(ConversationMessage, { conversationId, channelMessageId: msg.channelMessageId });
  }
  if (msg.replyTo) return em.findOne(ConversationMessage, { conversationId, replyTo: msg.replyTo });
  return Promise.resolve(null);
}

/** The user message with that channel id and the assistant message answering it, each if there. */
export async function findExchange(em: EntityManager, conversationId: string, messageId: string) {
  const [asked, answered] = await Promise.all([
    em.findOne(ConversationMessage, { conversationId, channelMessageId: messageId }),
    em.findOne(ConversationMessage, { conversationId, replyTo: messageId }),
  ]);
  return { asked, answered };
}

/** The last `limit` messages before `beforeSeq`, oldest first: the transcript a turn's agent reads. */
export async function transcriptBefore(
  em: EntityManager,
  conversationId: string,
  beforeSeq: number,
  limit = 50,
): Promise<Array<{ role: ConversationRole; text: string }>> {
  const rows = await em.find(
    ConversationMessage,
    { conversationId, seq: { $lt: beforeSeq } },
    { orderBy: { seq: 'desc' }, limit },
  );
  return rows.reverse().map((m) => ({ role: m.role, text: m.text }));
}

/** Replaces the context a conversation gives its agent from the next turn on (a copilot's current subject). */
export async function updateContext(
  em: EntityManager,
  conversationId: string,
  context: Record<string, unknown>,
): Promise<void> {
  await em.nativeUpdate(Conversation, { id: conversationId }, { context, updatedAt: new Date() });
}
