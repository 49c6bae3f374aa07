import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { conversationWorkflow } from '../../workflows';
import {
  endSignal,
  inboundSignal,
  type ConversationActivities,
  type ConversationWorkflowArgs,
} from '../../workflows/conversationMessages';
import type { TurnDecision } from '../../workflows/activityTypes';
import { pollUntil } from '../helpers/poll';
import { startTimeSkipping, TIME_SKIPPING_SETUP_MS, timeSkippingQueue, workflowWorker } from '../helpers/timeSkipping';
import { stubRun } from './stubRun';

// Each file bundles the workflows and starts a JVM test server; on a busy two-core machine that alone can take
// most of jest's default minute, while the skipped clock keeps what is asserted independent of it.
jest.setTimeout(180_000);

// The conversation workflow's clock and lifetime (docs/api/conversations.md): the idle timeout as a timer on
// the workflow clock, and continue-as-new after `turnsPerRun` turns carrying what it must remember. Each
// turn's run is a real child run workflow, over stand-in run activities.
let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await startTimeSkipping();
}, TIME_SKIPPING_SETUP_MS);
afterAll(async () => {
  await env?.teardown();
});

const final: TurnDecision = { kind: 'final', output: 'hello' };

function stubConversation(prefix: string) {
  const turns: string[] = [];
  let closed: { reason: string; at: number } | undefined;
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  const conversation: ConversationActivities = {
    async beginTurn(_id, message) {
      return { runId: `${prefix}-${message.messageId}`, workspaceId: 'w1', agentId: 'a1', sendsReply: false };
    },
    async awaitTurnRun() {},
    async finishTurn(_id, messageId, runId) {
      turns.push(messageId);
      for (const w of waiting.filter((x) => turns.length >= x.count)) w.resolve();
      return { reply: 'hello', runId, replySeq: turns.length, runStatus: 'succeeded' };
    },
    async sendConversationReply() {},
    async closeConversation(_id, reason) {
      closed = { reason, at: await env.currentTimeMs() };
    },
  };
  // every turn's child run answers at once
  const run = stubRun(
    {},
    Array.from({ length: 20 }, () => final),
  );
  return {
    activities: { ...run.activities, ...conversation },
    turns,
    closed: () => closed,
    /** Resolves once `count` turns have finished. */
    turnsTaken: (count: number) =>
      turns.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ count, resolve })),
  };
}

async function started(args: Omit<ConversationWorkflowArgs, 'conversationId'>) {
  const taskQueue = timeSkippingQueue();
  const conversation = stubConversation(taskQueue);
  const worker = await workflowWorker(env, taskQueue, conversation.activities);
  const handle = await env.client.workflow.start(conversationWorkflow, {
    args: [{ conversationId: 'c1', ...args }],
    workflowId: `conversation-${taskQueue}`,
    taskQueue,
  });
  return { conversation, worker, handle };
}

describe('the conversation workflow', () => {
  it('ends as idle once the idle time has passed on the workflow clock with no message', async () => {
    const openedAt = await env.currentTimeMs();
    const { conversation, worker, handle } = await started({ idleMs: 15 * 60_000, turnsPerRun: 50 });
    expect(await worker.runUntil(handle.result())).toBe('idle');
    expect(conversation.closed()!.reason).toBe('idle');
    expect(conversation.closed()!.at - openedAt).toBeGreaterThanOrEqual(15 * 60_000);
    expect(conversation.turns).toEqual([]);
  });

  it('counts the idle time from the last turn, not from the start', async () => {
    const { conversation, worker, handle } = await started({ idleMs: 15 * 60_000, turnsPerRun: 50 });
    const reason = await worker.runUntil(async () => {
      // 10 minutes in, a message: the conversation must outlive the first 15 minutes
      await env.sleep(10 * 60_000);
      await handle.signal(inboundSignal, { messageId: 'm1', text: 'hi' });
      await conversation.turnsTaken(1);
      const turnAt = await env.currentTimeMs();
      const result = await handle.result();
      expect(conversation.closed()!.at - turnAt).toBeGreaterThanOrEqual(15 * 60_000);
      return result;
    });
    expect(reason).toBe('idle');
    expect(conversation.turns).toEqual(['m1']);
  });

  it('continues as new after turnsPerRun turns, remembering the messages it has seen', async () => {
    const { conversation, worker, handle } = await started({ idleMs: 60 * 60_000, turnsPerRun: 2 });
    const firstRunId = handle.firstExecutionRunId;
    const reason = await worker.runUntil(async () => {
      await handle.signal(inboundSignal, { messageId: 'm1', text: 'one' });
      await handle.signal(inboundSignal, { messageId: 'm2', text: 'two' });
      await conversation.turnsTaken(2);
      // The next messages go to the new run once the first has continued as new. (Sent while it is
      // closing, Java's test server may deliver them to the run that is closing, where they are lost; the
      // real server refuses that close and the workflow takes them first, as workflows/conversationWorkflow.ts
      // is written to.)
      await pollUntil(
        20_000,
        async () => (await env.client.workflow.getHandle(handle.workflowId, firstRunId).describe()).status.name,
        (status) => status === 'CONTINUED_AS_NEW',
      );
      // a repeat of a message from before the continue-as-new is dropped, a new one is taken
      await handle.signal(inboundSignal, { messageId: 'm1', text: 'one again' });
      await handle.signal(inboundSignal, { messageId: 'm3', text: 'three' });
      await conversation.turnsTaken(3);
      await handle.signal(endSignal, { reason: 'user_ended' });
      return handle.result();
    });
    expect(reason).toBe('user_ended');
    expect(conversation.turns).toEqual(['m1', 'm2', 'm3']);
  });
});
