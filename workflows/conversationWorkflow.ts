import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  endSignal,
  inboundSignal,
  turnUpdate,
  type ConversationActivities,
  type ConversationWorkflowArgs,
  type InboundMessage,
  type TurnOutcome,
  type TurnStart,
} from './conversationMessages';
import { CHANNEL_REPLY, STORE_WRITES, UNTIL_DONE } from './retryPolicies';
import { startChildRun } from './startChildRun';

// Read-model writes and the creation of a turn's run: retried without limit, each short. Creating the
// run is idempotent (its key is the message), so a retry never makes a second run or charge.
const store = proxyActivities<ConversationActivities>({ startToCloseTimeout: '30 seconds', retry: STORE_WRITES });
// Waiting for a run that is not this workflow's child: long, heartbeating so a dead worker is noticed.
const watch = proxyActivities<ConversationActivities>({
  startToCloseTimeout: '24 hours',
  heartbeatTimeout: '15 seconds',
  retry: UNTIL_DONE,
});
// A reply through an asynchronous channel's provider: 8 attempts over about four minutes, so a
// provider's 5xx spell does not lose it; the adapter is idempotent on (conversation, reply seq).
const outbound = proxyActivities<ConversationActivities>({ startToCloseTimeout: '1 minute', retry: CHANNEL_REPLY });

/** Results kept for updates that repeat a message; older ones are answered from PostgreSQL. */
const KEEP_RESULTS = 50;
/** Message ids remembered (and carried over a continue-as-new) to drop repeated signals. */
const KEEP_SEEN = 200;

const endedOutcome = (): TurnOutcome => ({ ended: true, reply: '', runId: null, replySeq: 0 });

/**
 * One conversation (docs/api/conversations.md): inbound messages (signals from asynchronous channels,
 * updates from synchronous ones, deduplicated by message id) are taken one at a time, in arrival order.
 * Each turn is a real run of the agent, started as the child workflow `run-<id>` (its gates, billing and
 * credit hold are the run's), its reply recorded in PostgreSQL and, for a channel with an adapter, sent
 * by an activity with retries. It ends on request, or after `idleMs` without a message; after
 * `turnsPerRun` turns (or when Temporal suggests it) it continues as new with its queue and memory.
 */
export async function conversationWorkflow(args: ConversationWorkflowArgs): Promise<string> {
  const { conversationId } = args;
  const queue: InboundMessage[] = [...(args.carry?.queue ?? [])];
  const seen: string[] = [...(args.carry?.seen ?? [])];
  const results = new Map<string, TurnOutcome>();
  let turns = args.carry?.turns ?? 0;
  let turnsThisRun = 0;
  let current: string | null = null;
  let endReason: string | null = null;

  const remember = (id: string) => {
    seen.push(id);
    if (seen.length > KEEP_SEEN) seen.splice(0, seen.length - KEEP_SEEN);
  };
  const queued = (id: string) => current === id || queue.some((m) => m.messageId === id);

  setHandler(inboundSignal, (message) => {
    if (endReason !== null || seen.includes(message.messageId) || queued(message.messageId)) return;
    remember(message.messageId);
    queue.push(message);
  });
  setHandler(endSignal, ({ reason }) => {
    endReason ??= reason;
  });
  setHandler(turnUpdate, async (message) => {
    if (endReason !== null) return endedOutcome();
    // A repeat whose result is no longer in memory is taken again: the activities answer it from
    // PostgreSQL without a second run.
    if (!results.has(message.messageId) && !queued(message.messageId)) {
      if (!seen.includes(message.messageId)) remember(message.messageId);
      queue.push(message);
    }
    await condition(() => results.has(message.messageId) || (endReason !== null && !queued(message.messageId)));
    return results.get(message.messageId) ?? endedOutcome();
  });

  async function runTurn(message: InboundMessage, start: TurnStart): Promise<TurnOutcome> {
    try {
      const child = await startChildRun(start);
      // A run that fails or is cancelled still ends the turn; finishTurn reads how it ended.
      await child.result().catch(() => undefined);
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      await watch.awaitTurnRun(start.runId);
    }
    return store.finishTurn(conversationId, message.messageId, start.runId);
  }

  async function takeTurn(message: InboundMessage): Promise<TurnOutcome> {
    const start = await store.beginTurn(conversationId, message);
    if (!start) {
      endReason ??= 'gone';
      return endedOutcome();
    }
    const outcome = start.answered ?? (await runTurn(message, start));
    if (start.sendsReply && !outcome.error) {
      // Attempts used up: the reply stays recorded (undelivered) and the conversation goes on.
      await outbound.sendConversationReply(conversationId, outcome.replySeq).catch(() => undefined);
    }
    return outcome;
  }

  for (;;) {
    const woke = await condition(() => queue.length > 0 || endReason !== null, args.idleMs);
    if (endReason !== null) break;
    if (!woke) {
      endReason = 'idle';
      break;
    }
    const message = queue.shift()!;
    current = message.messageId;
    const outcome = await takeTurn(message);
    results.set(message.messageId, outcome);
    if (results.size > KEEP_RESULTS) results.delete(results.keys().next().value!);
    current = null;
    turns++;
    turnsThisRun++;
    if (turnsThisRun >= args.turnsPerRun || workflowInfo().continueAsNewSuggested) {
      // Only between turns, with every waiting update answered; a message arriving meanwhile goes first.
      await condition(() => queue.length > 0 || endReason !== null || allHandlersFinished());
      if (queue.length === 0 && endReason === null) {
        await continueAsNew<typeof conversationWorkflow>({
          ...args,
          carry: { queue: [], seen: seen.slice(-KEEP_SEEN), turns },
        });
      }
    }
  }
  // Messages still queued get no turn; their updates answer "ended".
  queue.length = 0;
  await store.closeConversation(conversationId, endReason);
  await condition(allHandlersFinished);
  return endReason;
}
