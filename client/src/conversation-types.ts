/** Types of tutor sessions and copilots (docs/api/tutor.md, docs/api/copilots.md). */
import type { Proposal } from './eval-types.js';
import type { ReadParams, ReadResult } from './data-source-types.js';

export interface ConversationMessage {
  seq: number;
  role: 'user' | 'assistant';
  text: string;
  runId: string | null;
  createdAt: string;
}

export interface TutorSession {
  id: string;
  agentId: string;
  topic: string;
  status: 'active' | 'ended';
  endedReason: string | null;
  createdAt: string;
  updatedAt: string;
  endedAt: string | null;
  /** Present on a single session. */
  messages?: ConversationMessage[];
}

/** A copilot session: the conversation about one agent or data source. */
export interface CopilotSession {
  id: string;
  agentId: string;
  /** The agent or data source it is about. */
  subjectId: string;
  status: 'active' | 'ended';
  endedReason: string | null;
  createdAt: string;
  updatedAt: string;
  endedAt: string | null;
  /** Present on a single session. */
  messages?: ConversationMessage[];
}

export interface TutorReply {
  reply: string;
  runId: string | null;
  /** The message id (Idempotency-Key) was seen before: the first reply, no new run. */
  duplicate: boolean;
}

export interface AgentCopilotReply {
  /** The copilot conversation the turn went to (pass it back to continue that one). */
  conversationId: string;
  reply: string;
  runId: string | null;
  /** The improvement proposal made of a change the copilot suggested. */
  proposal: Proposal | null;
}

export interface DataSourceCopilotReply {
  conversationId: string;
  reply: string;
  runId: string | null;
  /** The structured read the copilot answered with (never SQL). */
  read: ReadParams | null;
  /** What the read returned. */
  result: ReadResult | null;
}
