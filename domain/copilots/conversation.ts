import { Conversation, type Channel } from '../../db/entities/Conversation';
import { findConversation, openConversation, updateContext, type ConversationDeps } from '../conversations';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { copilotAgent } from './copilotAgent';

const callerOf = (identity: Identity) => (identity.actor === 'api_key' ? identity.keyId : identity.userId);

/**
 * The conversation a copilot turn goes to (docs/api/copilots.md): the one named (of this channel and
 * subject, still active: else 404 or 409), else the caller's latest active one about the subject, else
 * a new one with the workspace's copilot agent. Its context becomes `context` for the coming turn.
 */
export async function copilotConversation(
  deps: ConversationDeps,
  identity: Identity,
  channel: Channel,
  subjectId: string,
  context: Record<string, unknown>,
  conversationId?: string,
): Promise<Conversation> {
  const { em } = deps;
  let conversation: Conversation | null = null;
  if (conversationId) {
    conversation = await findConversation(em, identity.workspaceId, conversationId, channel);
    if (conversation.channelRef !== subjectId) throw errors.notFound('Conversation');
    if (conversation.status === 'ended') throw errors.conflict('The conversation has ended', { status: 'ended' });
  } else {
    conversation = await em.findOne(
      Conversation,
      {
        workspaceId: identity.workspaceId,
        channel,
        channelRef: subjectId,
        openedBy: callerOf(identity),
        status: 'active',
      },
      { orderBy: { createdAt: 'desc' } },
    );
  }
  if (conversation) {
    await updateContext(em.fork(), conversation.id, context);
    return conversation;
  }
  const agent = await copilotAgent(em, identity.workspaceId);
  return openConversation(deps, {
    workspaceId: identity.workspaceId,
    agentId: agent.id,
    channel,
    channelRef: subjectId,
    context,
    openedBy: callerOf(identity),
  });
}
