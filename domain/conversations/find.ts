import type { EntityManager } from '@mikro-orm/postgresql';
import { Conversation, type Channel } from '../../db/entities/Conversation';
import { ConversationMessage } from '../../db/entities/ConversationMessage';
import { errors } from '../errors';

/**
 * A conversation of the workspace, optionally of one channel. Throws `not_found` for any other id,
 * another workspace's or another channel's included.
 */
export async function findConversation(
  em: EntityManager,
  workspaceId: string,
  id: string,
  channel?: Channel | Channel[],
): Promise<Conversation> {
  const where: Record<string, unknown> = { id, workspaceId };
  if (channel) where.channel = Array.isArray(channel) ? { $in: channel } : channel;
  const found = await em.findOne(Conversation, where);
  if (!found) throw errors.notFound('Conversation');
  return found;
}

/** Every message of a conversation, in order (at most `limit`, the latest). */
export async function listMessages(em: EntityManager, conversationId: string, limit = 500): Promise<ConversationMessage[]> {
  const rows = await em.find(ConversationMessage, { conversationId }, { orderBy: { seq: 'desc' }, limit });
  return rows.reverse();
}
