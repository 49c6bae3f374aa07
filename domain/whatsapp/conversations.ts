import type { EntityManager } from '@mikro-orm/postgresql';
import { Conversation } from '../../db/entities/Conversation';
import { ConversationMessage } from '../../db/entities/ConversationMessage';
import { WhatsAppAccount } from '../../db/entities/WhatsAppAccount';
import { WhatsAppConversation } from '../../db/entities/WhatsAppConversation';
import { WhatsAppReply, type ReplyStatus } from '../../db/entities/WhatsAppReply';
import { endConversation, listMessages, type ConversationDeps } from '../conversations';
import { errors } from '../errors';
import { findPage } from '../shared/pagination';

export interface WhatsAppMessageView {
  /** The message's id (a reply's is what `redeliver` takes). */
  id: string;
  seq: number;
  role: 'user' | 'assistant';
  text: string;
  /** The Cloud API's id of the message: a contact's, or the one the Graph API gave a sent reply. */
  messageId: string | null;
  /** A reply's: `pending` until sent, then as Meta reports it (docs/api/whatsapp.md#reply-status); null for a contact's. */
  status: 'pending' | ReplyStatus | null;
  /** Why a reply failed. */
  error: string | null;
  runId: string | null;
  createdAt: string;
}

export interface WhatsAppConversationView {
  id: string;
  accountId: string;
  agentId: string;
  waId: string;
  status: 'active' | 'ended';
  endedReason: string | null;
  createdAt: string;
  updatedAt: string;
  endedAt: string | null;
  messages?: WhatsAppMessageView[];
}

function present(
  link: WhatsAppConversation,
  c: Conversation,
  messages?: ConversationMessage[],
  replies: Map<number, WhatsAppReply> = new Map(),
): WhatsAppConversationView {
  return {
    id: c.id,
    accountId: link.account.id,
    agentId: c.agentId,
    waId: link.waId,
    status: c.status,
    endedReason: c.endedReason,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    endedAt: c.endedAt ? c.endedAt.toISOString() : null,
    ...(messages
      ? {
          messages: messages.map((m) => {
            const reply = m.role === 'assistant' ? replies.get(m.seq) : undefined;
            return {
              id: m.id,
              seq: m.seq,
              role: m.role,
              text: m.text,
              messageId: m.role === 'user' ? m.channelMessageId : (reply?.messageId ?? null),
              status: m.role === 'user' ? null : (reply?.status ?? 'pending'),
              error: reply?.error ?? null,
              runId: m.runId,
              createdAt: m.createdAt.toISOString(),
            };
          }),
        }
      : {}),
  };
}

/**
 * One page of the workspace's WhatsApp conversations, newest first, of one account when given (a removed
 * account's included). Throws `not_found` for an account id of no account of the workspace.
 */
export async function listWhatsAppConversations(
  em: EntityManager,
  workspaceId: string,
  query: { accountId?: string; limit: number; cursor?: string },
): Promise<{ conversations: WhatsAppConversationView[]; nextCursor: string | null }> {
  const where: Record<string, unknown> = { workspaceId };
  if (query.accountId) {
    const account = await em.findOne(WhatsAppAccount, { id: query.accountId, workspace: workspaceId });
    if (!account) throw errors.notFound('WhatsApp account');
    where.account = account.id;
  }
  const { items, nextCursor } = await findPage(em, WhatsAppConversation, where, query);
  const rows = await em.find(Conversation, { id: { $in: items.map((l) => l.id) } });
  const byId = new Map(rows.map((c) => [c.id, c]));
  return {
    conversations: items.filter((l) => byId.has(l.id)).map((l) => present(l, byId.get(l.id)!)),
    nextCursor,
  };
}

/** A WhatsApp conversation of the workspace with its messages in order (the latest 500). Throws `not_found`. */
export async function getWhatsAppConversation(
  em: EntityManager,
  workspaceId: string,
  id: string,
): Promise<WhatsAppConversationView> {
  const link = await em.findOne(WhatsAppConversation, { id, workspaceId });
  const conversation = link ? await em.findOne(Conversation, { id, workspaceId }) : null;
  if (!link || !conversation) throw errors.notFound('Conversation');
  const replies = await em.find(WhatsAppReply, { conversationId: id });
  return present(link, conversation, await listMessages(em, id), new Map(replies.map((r) => [r.replySeq, r])));
}

/** Ends the active conversations of a removed account, so no workflow waits on a number no longer served. */
export async function endAccountConversations(deps: ConversationDeps, workspaceId: string, accountId: string) {
  const links = await deps.em.find(WhatsAppConversation, { account: accountId, workspaceId });
  if (links.length === 0) return;
  const active = await deps.em.find(Conversation, { id: { $in: links.map((l) => l.id) }, status: 'active' });
  for (const c of active) {
    await endConversation(deps, { workspaceId, conversationId: c.id, reason: 'account_removed' });
  }
}
