import type { EntityManager } from '@mikro-orm/postgresql';
import { Run } from '../../db/entities/Run';
import { conversationWorkflowId, turnUpdate, type TurnOutcome } from '../../workflows/conversationMessages';
import { ApiError, errors, type ErrorCode } from '../errors';
import { enqueue, relayNow, release } from '../shared/outbox/relay';
import type { ConversationDeps } from './deps';
import { findConversation } from './find';
import { appendMessage, findExchange } from './messages';
import type { OnBehalfOf } from '../runs/runGate';

export interface TurnRequest {
  workspaceId: string;
  conversationId: string;
  /** The channel's id for the message (an `Idempotency-Key`, a provider's message id): the dedupe key. */
  messageId: string;
  text: string;
  /**
   * On whose behalf the turn's run is made (docs/api/billing.md#who-pays): the API caller, or anonymous for a
   * message from outside (a phone call), when the workspace pays.
   */
  onBehalfOf: OnBehalfOf;
}

export interface TurnReply {
  reply: string;
  runId: string | null;
  /** The message was seen before: its first turn's reply, no new turn or charge. */
  duplicate: boolean;
  /** The turn's run output (copilots read their proposal or read from it). */
  output?: unknown;
}

/**
 * A synchronous turn (phone callbacks, tutor, copilots; docs/api/conversations.md#turns): records the
 * message and waits for the reply, through a Temporal update whose id is the message id. Idempotent on
 * `messageId`: a repeat gets the reply of the first (`duplicate: true`) and makes no new turn or charge.
 * Throws `not_found`, `conflict` (the conversation has ended), the run's billing errors (402), and
 * `unavailable` when the reply is not there within `SVC_CONVERSATION_TURN_SECONDS` (a retry with the
 * same message id waits for the same turn).
 */
export async function takeTurn(deps: ConversationDeps, req: TurnRequest): Promise<TurnReply> {
  const { em } = deps;
  const conversation = await findConversation(em, req.workspaceId, req.conversationId);
  const { asked, answered } = await findExchange(em, conversation.id, req.messageId);
  if (answered) return { ...(await replyOf(em, answered.text, answered.runId)), duplicate: true };
  if (conversation.status === 'ended') throw ended();
  let duplicate = !!asked;
  if (!asked) {
    const made = await em.fork().transactional((tx) =>
      appendMessage(tx, conversation.id, {
        role: 'user',
        text: req.text,
        channelMessageId: req.messageId,
        onBehalfOf: req.onBehalfOf,
      }),
    );
    if (!made) throw errors.notFound('Conversation');
    duplicate = !made.created;
  }
  const handle = deps.temporal.client.workflow.getHandle(conversationWorkflowId(conversation.id));
  let outcome: TurnOutcome;
  try {
    outcome = await deps.temporal.call(
      () =>
        handle.executeUpdate(turnUpdate, {
          args: [{ messageId: req.messageId, text: req.text }],
          updateId: req.messageId,
        }),
      deps.config.conversations.turnTimeoutMs,
    );
  } catch {
    const now = await findConversation(em.fork(), req.workspaceId, conversation.id);
    if (now.status === 'ended') throw ended();
    throw errors.unavailable('The reply', 5);
  }
  if (outcome.ended) throw ended();
  if (outcome.error) {
    const e = outcome.error;
    throw new ApiError(e.code as ErrorCode, e.message, e.details, {}, e.status);
  }
  return { reply: outcome.reply, runId: outcome.runId, duplicate, output: outcome.output };
}

/**
 * An asynchronous turn (WhatsApp): records the message, from outside and so on nobody's behalf (its run is
 * the workspace's, docs/api/billing.md#who-pays), and signals the workflow through the outbox; the
 * reply goes out later through the channel's adapter. Idempotent on `messageId` (`duplicate: true`
 * for a repeat, nothing new happens). Throws `not_found`, `conflict` when the conversation has ended.
 */
export async function deliverInbound(
  deps: ConversationDeps,
  req: Omit<TurnRequest, 'onBehalfOf'>,
): Promise<{ duplicate: boolean }> {
  const { em } = deps;
  const conversation = await findConversation(em, req.workspaceId, req.conversationId);
  const made = await em.fork().transactional(async (tx) => {
    const appended = await appendMessage(tx, conversation.id, {
      role: 'user',
      text: req.text,
      channelMessageId: req.messageId,
    });
    if (!appended?.created) return { appended, signal: null };
    if (conversation.status === 'ended') throw ended();
    const signal = enqueue(
      tx,
      {
        kind: 'signal_conversation',
        conversationId: conversation.id,
        signal: 'inbound',
        payload: { messageId: req.messageId, text: req.text },
      },
      { held: true, dedupeKey: `conv-in:${conversation.id}:${req.messageId}` },
    );
    return { appended, signal };
  });
  if (!made.appended) throw errors.notFound('Conversation');
  if (!made.signal) return { duplicate: true };
  try {
    await relayNow(deps, em, made.signal);
  } catch (err) {
    // Recorded: the sweep delivers the signal when Temporal is back.
    await release(em, [made.signal.id], err);
  }
  return { duplicate: false };
}

async function replyOf(em: EntityManager, reply: string, runId: string | null) {
  const run = runId ? await em.findOne(Run, runId, { fields: ['output'] }) : null;
  return { reply, runId, output: run?.output ?? undefined };
}

const ended = () => errors.conflict('The conversation has ended', { status: 'ended' });
