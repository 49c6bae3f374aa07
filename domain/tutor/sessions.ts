import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Conversation } from '../../db/entities/Conversation';
import {
  endConversation,
  findConversation,
  listMessages,
  openConversation,
  presentConversation,
  takeTurn,
  type ConversationDeps,
  type ConversationView,
} from '../conversations';
import type { Identity } from '../identity/identity';
import { findPage } from '../shared/pagination';
import { onBehalfOfCaller } from '../runs/runGate';

/** A tutor session is a conversation of the `tutor` channel; its topic is the conversation's subject. */
export type TutorSessionView = Omit<ConversationView, 'channel' | 'channelRef' | 'subject'> & { topic: string };

function present(c: Conversation, messages?: Parameters<typeof presentConversation>[1]): TutorSessionView {
  const { channel: _c, channelRef: _r, subject, ...rest } = presentConversation(c, messages);
  return { ...rest, topic: subject ?? '' };
}

export const callerOf = (identity: Identity) => (identity.actor === 'api_key' ? identity.keyId : identity.userId);

/** Starts a session with an agent on a topic (docs/api/tutor.md). Throws `not_found`, `unavailable`. */
export async function startSession(
  deps: ConversationDeps,
  identity: Identity,
  body: { agentId: string; topic: string },
): Promise<TutorSessionView> {
  const conversation = await openConversation(deps, {
    workspaceId: identity.workspaceId,
    agentId: body.agentId,
    channel: 'tutor',
    subject: body.topic,
    context: { topic: body.topic },
    openedBy: callerOf(identity),
  });
  return present(conversation, []);
}

/**
 * One message of the learner and the tutor's reply (a charged run of the agent). `messageId` is the
 * request's Idempotency-Key, else a fresh one: a repeat with the key gets the first reply, no new run.
 */
export async function sendMessage(
  deps: ConversationDeps,
  identity: Identity,
  sessionId: string,
  text: string,
  messageId: string | null,
) {
  await findConversation(deps.em, identity.workspaceId, sessionId, 'tutor');
  const turn = await takeTurn(deps, {
    workspaceId: identity.workspaceId,
    conversationId: sessionId,
    messageId: messageId ?? randomUUID(),
    text,
    onBehalfOf: onBehalfOfCaller(identity),
  });
  return { reply: turn.reply, runId: turn.runId, duplicate: turn.duplicate };
}

/** Ends a session; ending an ended one changes nothing. Throws `not_found`. */
export async function endSession(deps: ConversationDeps, identity: Identity, sessionId: string) {
  await findConversation(deps.em, identity.workspaceId, sessionId, 'tutor');
  await endConversation(deps, { workspaceId: identity.workspaceId, conversationId: sessionId, reason: 'request' });
  return getSession(deps.em.fork(), identity, sessionId);
}

/** A session with its messages. Throws `not_found`. */
export async function getSession(em: EntityManager, identity: Identity, sessionId: string): Promise<TutorSessionView> {
  const c = await findConversation(em, identity.workspaceId, sessionId, 'tutor');
  return present(c, await listMessages(em, c.id));
}

/** The workspace's sessions, newest first, without their messages. */
export async function listSessions(em: EntityManager, identity: Identity, page: { limit: number; cursor?: string }) {
  const { items, nextCursor } = await findPage(
    em,
    Conversation,
    { workspaceId: identity.workspaceId, channel: 'tutor' },
    page,
  );
  return { sessions: items.map((c) => present(c)), nextCursor };
}
