import { Conversation, type Channel } from '../../db/entities/Conversation';
import { findAgent } from '../agents/find';
import { errors } from '../errors';
import { enqueue, relayOrUndo } from '../shared/outbox/relay';
import type { ConversationDeps } from './deps';

export interface OpenRequest {
  workspaceId: string;
  agentId: string;
  channel: Channel;
  channelRef?: string | null;
  subject?: string | null;
  /** Extra context given to the agent each turn (the run input's top-level fields). */
  context?: Record<string, unknown>;
  /** Who opens it (a key or user id), for lists of a caller's conversations. */
  openedBy?: string | null;
}

/**
 * Creates the conversation and starts `conversation-<id>`: the row and the start commit together
 * through the outbox (docs/architecture.md) and the call is made at once. Throws `not_found` for an
 * agent that is not a live agent of the workspace, `unavailable` when Temporal does not take the start
 * in time (nothing is left behind then).
 */
export async function openConversation(deps: ConversationDeps, req: OpenRequest): Promise<Conversation> {
  const { em } = deps;
  await findAgent(em, req.workspaceId, req.agentId);
  const conversation = new Conversation(req.workspaceId, req.agentId, req.channel);
  conversation.channelRef = req.channelRef ?? null;
  conversation.subject = req.subject ?? null;
  conversation.context = req.context ?? {};
  conversation.openedBy = req.openedBy ?? null;
  const settings = deps.config.conversations;
  const start = await em.transactional(async (tx) => {
    tx.persist(conversation);
    return enqueue(
      tx,
      {
        kind: 'start_conversation',
        conversationId: conversation.id,
        workspaceId: conversation.workspaceId,
        agentId: conversation.agentId,
        taskQueue: deps.config.temporal.taskQueue,
        idleMs: Math.round(settings.idleMinutes * 60_000),
        turnsPerRun: settings.turnsPerRun,
      },
      { held: true },
    );
  });
  await relayOrUndo(deps, em, start, (tx) => tx.nativeDelete(Conversation, { id: conversation.id }));
  return conversation;
}
