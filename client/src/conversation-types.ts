/** Types of tutor sessions and copilots (docs/api/tutor.md, docs/api/copilots.md). */

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

export interface TutorReply {
  reply: string;
  runId: string | null;
  /** The message id (Idempotency-Key) was seen before: the first reply, no new run. */
  duplicate: boolean;
}
