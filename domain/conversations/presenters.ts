import type { Conversation } from '../../db/entities/Conversation';
import type { ConversationMessage } from '../../db/entities/ConversationMessage';

export interface ConversationMessageView {
  seq: number;
  role: 'user' | 'assistant';
  text: string;
  runId: string | null;
  createdAt: string;
}

export interface ConversationView {
  id: string;
  agentId: string;
  channel: string;
  channelRef: string | null;
  subject: string | null;
  status: 'active' | 'ended';
  endedReason: string | null;
  createdAt: string;
  updatedAt: string;
  endedAt: string | null;
  messages?: ConversationMessageView[];
}

export function presentMessage(m: ConversationMessage): ConversationMessageView {
  return { seq: m.seq, role: m.role, text: m.text, runId: m.runId, createdAt: m.createdAt.toISOString() };
}

/** A conversation, with its messages when given. */
export function presentConversation(c: Conversation, messages?: ConversationMessage[]): ConversationView {
  return {
    id: c.id,
    agentId: c.agentId,
    channel: c.channel,
    channelRef: c.channelRef,
    subject: c.subject,
    status: c.status,
    endedReason: c.endedReason,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    endedAt: c.endedAt ? c.endedAt.toISOString() : null,
    ...(messages ? { messages: messages.map(presentMessage) } : {}),
  };
}
