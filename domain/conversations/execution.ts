import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Conversation } from '../../db/entities/Conversation';
import { ConversationMessage } from '../../db/entities/ConversationMessage';
import { Run } from '../../db/entities/Run';
import type { Orm } from '../../db/orm';
import type { InboundMessage, TurnOutcome, TurnStart } from '../../workflows/conversationMessages';
import { TERMINAL_STATUSES } from '../../workflows/messages';
import { ApiError } from '../errors';
import type { ModelRegistry } from '../models/registry';
import { createChildRun } from '../runs/childRun';
import type { ChannelRegistry } from './channelRegistry';
import { onBehalfOfRow, type GateConfig } from '../runs/runGate';
import { appendMessage, transcriptBefore } from './messages';
import { replyText } from './replyText';

/** What the conversation workflow's activities need (the worker's side of the engine). */
export interface ConversationExecDeps {
  orm: Orm;
  models: ModelRegistry;
  channels: ChannelRegistry;
  config: GateConfig;
}

/** The run key of a message's turn: one run (and one charge) per message, however often it is taken. */
export function turnRunKey(conversationId: string, messageId: string): string {
  const id = messageId.length <= 128 ? messageId : createHash('sha256').update(messageId).digest('hex');
  return `conv:${conversationId}:${id}`;
}

/**
 * A turn's first step: records the user message (if the API has not), then creates the turn's run
 * with createChildRun (docs/api/conversations.md#turns): its input is the conversation's context, the
 * transcript so far and the new message. A message already answered returns its answer; a run that
 * cannot be made (not enough credits, the agent deleted) returns the error as the outcome. Null when
 * the conversation is gone.
 */
export async function beginTurn(
  deps: ConversationExecDeps,
  conversationId: string,
  message: InboundMessage,
): Promise<TurnStart | null> {
  const em = deps.orm.em.fork();
  const conversation = await em.findOne(Conversation, conversationId);
  if (!conversation) return null;
  const base = {
    workspaceId: conversation.workspaceId,
    agentId: conversation.agentId,
    sendsReply: !!deps.channels.adapterFor(conversation.channel),
  };
  const asked = await em
    .fork()
    .transactional((tx) =>
      appendMessage(tx, conversationId, { role: 'user', text: message.text, channelMessageId: message.messageId }),
    );
  if (!asked) return null;
  const answer = await em.findOne(ConversationMessage, { conversationId, replyTo: message.messageId });
  if (answer) return { ...base, runId: answer.runId ?? '', answered: await outcomeOf(deps.orm, answer) };

  const input = {
    ...conversation.context,
    channel: conversation.channel,
    subject: conversation.subject,
    transcript: await transcriptBefore(em, conversationId, asked.message.seq),
    message: asked.message.text,
  };
  try {
    // The sender the API recorded on the message; a message from outside (phone, WhatsApp) has none.
    const onBehalfOf = onBehalfOfRow(conversation.workspaceId, asked.message, 'inbound_message');
    const run = await createChildRun(em, deps.models, deps.config, {
      onBehalfOf,
      agentId: conversation.agentId,
      input,
      metadata: { conversationId, messageId: message.messageId, channel: conversation.channel },
      key: turnRunKey(conversationId, message.messageId),
    });
    return { ...base, agentId: run.agentId, runId: run.id };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const error = { code: err.code, message: err.message, status: err.status, details: err.details };
    return { ...base, runId: '', answered: { reply: '', runId: null, replySeq: 0, error } };
  }
}

/** Waits until a run ends, calling `beat` while it waits (a dead worker's wait is retried elsewhere). */
export async function awaitTurnRun(orm: Orm, runId: string, beat: () => void, signal?: AbortSignal): Promise<void> {
  for (;;) {
    const run = await orm.em.fork().findOne(Run, runId, { fields: ['status'] });
    if (!run || TERMINAL_STATUSES.includes(run.status)) return;
    beat();
    await sleep(1000, undefined, { signal });
  }
}

/**
 * A turn's last step: records the assistant message for how the run ended, in one transaction, at
 * most once per user message (a retried call finds the first). A run that did not succeed answers
 * with a short apology naming its status; the run itself tells the rest.
 */
export async function finishTurn(
  orm: Orm,
  conversationId: string,
  messageId: string,
  runId: string,
): Promise<TurnOutcome> {
  const em = orm.em.fork();
  const run = await em.findOneOrFail(Run, runId);
  const text =
    run.status === 'succeeded'
      ? replyText(run.output)
      : `Sorry, I could not answer that (the turn's run ${run.status}${run.error ? `: ${run.error.message}` : ''}).`;
  const made = await em.transactional((tx) =>
    appendMessage(tx, conversationId, { role: 'assistant', text, runId, replyTo: messageId }),
  );
  if (!made) return { ended: true, reply: '', runId, replySeq: 0 };
  return { reply: made.message.text, runId, replySeq: made.message.seq, output: run.output, runStatus: run.status };
}

/** The outcome of a message answered before. */
async function outcomeOf(orm: Orm, answer: ConversationMessage): Promise<TurnOutcome> {
  const run = answer.runId ? await orm.em.fork().findOne(Run, answer.runId) : null;
  return {
    reply: answer.text,
    runId: answer.runId,
    replySeq: answer.seq,
    output: run?.output,
    runStatus: run?.status,
  };
}

/**
 * Sends an assistant message through its channel's adapter, once: a message already delivered is
 * left alone; the adapter is idempotent on (conversation, seq) for the window between its send and
 * the mark. A reply the adapter recorded as failed stays undelivered. Throws (to be retried) when the
 * adapter does.
 */
export async function sendConversationReply(
  deps: ConversationExecDeps,
  conversationId: string,
  replySeq: number,
): Promise<void> {
  const em = deps.orm.em.fork();
  const conversation = await em.findOne(Conversation, conversationId);
  const message = await em.findOne(ConversationMessage, { conversationId, seq: replySeq, role: 'assistant' });
  if (!conversation || !message || message.deliveredAt) return;
  const adapter = deps.channels.adapterFor(conversation.channel);
  if (!adapter) return;
  const outcome = await adapter.sendReply({
    workspaceId: conversation.workspaceId,
    conversationId,
    channelRef: conversation.channelRef,
    replySeq,
    text: message.text,
  });
  if (outcome === 'sent') await em.nativeUpdate(ConversationMessage, { id: message.id }, { deliveredAt: new Date() });
}

/** Marks the conversation ended with its reason (idle, request, hang-up); an ended one keeps its first. */
export async function closeConversation(orm: Orm, conversationId: string, reason: string): Promise<void> {
  const now = new Date();
  await orm.em
    .fork()
    .nativeUpdate(
      Conversation,
      { id: conversationId, status: 'active' },
      { status: 'ended', endedReason: reason, endedAt: now, updatedAt: now },
    );
}
