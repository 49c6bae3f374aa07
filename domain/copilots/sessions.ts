import type { EntityManager } from '@mikro-orm/postgresql';
import { Conversation } from '../../db/entities/Conversation';
import { findAgent } from '../agents/find';
import { findConversation, listMessages } from '../conversations';
import { presentConversation, type ConversationView } from '../conversations/presenters';
import { findDataSource } from '../dataSources/dataSources';
import { errors } from '../errors';
import { findPage } from '../shared/pagination';

/** A copilot session: the conversation about one agent or data source, as tutor sessions read. */
export type CopilotSessionView = Omit<ConversationView, 'channel' | 'channelRef' | 'subject'> & {
  subjectId: string;
};

/** What a copilot talks about: its channel, and how to check that the subject is the workspace's. */
const SUBJECTS = {
  agent: { channel: 'agent_copilot', find: findAgent },
  data_source: { channel: 'data_source_copilot', find: findDataSource },
} as const;

export type CopilotSubject = keyof typeof SUBJECTS;

function present(c: Conversation, withMessages?: Parameters<typeof presentConversation>[1]): CopilotSessionView {
  const { channel: _channel, channelRef, subject: _subject, ...view } = presentConversation(c, withMessages);
  return { ...view, subjectId: channelRef ?? '' };
}

/**
 * The copilot sessions about one agent or data source, newest first, without their messages
 * (docs/api/copilots.md#sessions). Throws `not_found` for a subject not of the workspace.
 */
export async function listCopilotSessions(
  em: EntityManager,
  workspaceId: string,
  subject: CopilotSubject,
  subjectId: string,
  page: { limit: number; cursor?: string },
): Promise<{ sessions: CopilotSessionView[]; nextCursor: string | null }> {
  const { channel, find } = SUBJECTS[subject];
  await find(em, workspaceId, subjectId);
  const { items, nextCursor } = await findPage(em, Conversation, { workspaceId, channel, channelRef: subjectId }, page);
  return { sessions: items.map((c) => present(c)), nextCursor };
}

/**
 * One copilot session with its messages. Throws `not_found` for a subject not of the workspace, or a
 * session that is not about it.
 */
export async function getCopilotSession(
  em: EntityManager,
  workspaceId: string,
  subject: CopilotSubject,
  subjectId: string,
  sessionId: string,
): Promise<CopilotSessionView> {
  const { channel, find } = SUBJECTS[subject];
  await find(em, workspaceId, subjectId);
  const c = await findConversation(em, workspaceId, sessionId, channel);
  if (c.channelRef !== subjectId) throw errors.notFound('Conversation');
  return present(c, await listMessages(em, c.id));
}
