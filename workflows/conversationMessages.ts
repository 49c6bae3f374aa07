import { defineSignal, defineUpdate } from '@temporalio/workflow';

/** The conversation workflow's vocabulary, imported by the API (to start and talk to it) and the workflow. */

/** The conversation's workflow id, `conversation-<id>`, on the runs task queue (docs/api/conversations.md). */
export const conversationWorkflowId = (conversationId: string) => `conversation-${conversationId}`;

/** One inbound message: the channel's id for it (the dedupe key) and its text. */
export interface InboundMessage {
  messageId: string;
  text: string;
}

/** What a turn ended with, as the synchronous caller gets it. */
export interface TurnOutcome {
  /** The conversation ended before this message got its turn. */
  ended?: boolean;
  reply: string;
  runId: string | null;
  replySeq: number;
  /** The run's output (the copilots read their proposal or read from it). */
  output?: unknown;
  /** The turn got no run (e.g. not enough credits): the API error, as the synchronous caller gets it. */
  error?: { code: string; message: string; status: number; details?: Record<string, unknown> };
  /** The status the turn's run ended in (`succeeded`, `failed`, `cancelled`). */
  runStatus?: string;
}

/** State carried over a continue-as-new. */
export interface ConversationCarry {
  queue: InboundMessage[];
  /** Message ids seen lately (a signal repeated by the outbox or the channel is dropped). */
  seen: string[];
  turns: number;
}

export interface ConversationWorkflowArgs {
  conversationId: string;
  /** Idle time after which the conversation ends (SVC_CONVERSATION_IDLE_MINUTES), fixed at open. */
  idleMs: number;
  /** Turns per workflow run before it continues as new with its state. */
  turnsPerRun: number;
  carry?: ConversationCarry;
}

/** An asynchronous channel's message (WhatsApp): recorded first, its turn taken in order. */
export const inboundSignal = defineSignal<[InboundMessage]>('inbound');
/** Ends the conversation (request, hang-up); idempotent. */
export const endSignal = defineSignal<[{ reason: string }]>('end');
/** A synchronous turn: the reply is the update's result; the update id is the message id. */
export const turnUpdate = defineUpdate<TurnOutcome, [InboundMessage]>('turn');

/** What a turn's run needs to be started as a child: null when the conversation is gone. */
export interface TurnStart {
  runId: string;
  workspaceId: string;
  agentId: string;
  /** The channel has an adapter: the reply is sent by an activity (asynchronous channels). */
  sendsReply: boolean;
  /** Already answered (a repeat): its outcome, no run to start or wait for. */
  answered?: TurnOutcome;
}

/** The activities of the conversation workflow (activities/conversations.ts implements them). */
export interface ConversationActivities {
  /** Records the user message and creates its turn's run (key `conv:<id>:<messageId>`); null when gone. */
  beginTurn(conversationId: string, message: InboundMessage): Promise<TurnStart | null>;
  /** Waits (heartbeating) until a run whose workflow was not this one's child ends. */
  awaitTurnRun(runId: string): Promise<void>;
  /** Records the assistant message for the run's outcome; idempotent on the message it answers. */
  finishTurn(conversationId: string, messageId: string, runId: string): Promise<TurnOutcome>;
  /** Sends the reply through the channel's adapter when the channel has one; idempotent. */
  sendConversationReply(conversationId: string, replySeq: number): Promise<void>;
  /** Marks the conversation ended with its reason; idempotent. */
  closeConversation(conversationId: string, reason: string): Promise<void>;
}
