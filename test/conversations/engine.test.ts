import { randomUUID } from 'node:crypto';
import { Conversation } from '../../db/entities/Conversation';
import { ConversationMessage } from '../../db/entities/ConversationMessage';
import { LedgerEntry } from '../../db/entities/LedgerEntry';
import { Run } from '../../db/entities/Run';
import {
  deliverInbound,
  endConversation,
  openConversation,
  takeTurn,
  type ConversationDeps,
} from '../../domain/conversations';
import { conversationWorkflowId } from '../../workflows/conversationMessages';
import { bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { createAgent } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { pollUntil } from '../helpers/poll';

// The conversation engine itself (docs/api/conversations.md), through its domain API with a real worker:
// dedupe by message id, idle end, continue-as-new keeping the transcript, one charge per turn.
describe('conversation engine', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let account: Account;
  let agentId: string;
  const deps = (): ConversationDeps => ({ em: h.orm.em.fork(), temporal: h.temporal, config: h.config });

  beforeAll(async () => {
    // Two turns per workflow run, so a few messages cross continue-as-new; idle after 3 seconds.
    ({ h, stop } = await startRunStack({
      conversations: { idleMinutes: 0.05, turnsPerRun: 2, turnTimeoutMs: 30_000 },
    }));
    account = await signUp(h);
    await setPlan(h, account.workspaceId, 'scale');
    const auth = bearer(await createKey(h, account, ['agents:write', 'runs:read']));
    agentId = (await createAgent(h, auth, {})).id;
  }, 120_000);
  afterAll(async () => {
    await stop();
  });

  const open = () =>
    openConversation(deps(), { workspaceId: account.workspaceId, agentId, channel: 'phone', channelRef: 'call-1' });
  const turn = (conversationId: string, text: string, messageId = randomUUID()) =>
    takeTurn(deps(), {
      workspaceId: account.workspaceId,
      conversationId,
      messageId,
      text,
      onBehalfOf: { kind: 'anonymous', workspaceId: account.workspaceId, reason: 'inbound_message' },
    });
  const messages = (conversationId: string) =>
    h.orm.em.fork().find(ConversationMessage, { conversationId }, { orderBy: { seq: 'asc' } });

  const waitFor = <T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 20_000): Promise<T> =>
    pollUntil(ms, read, done, 'the conversation state');

  it('continues as new after its turns per run and keeps the transcript; each turn one run, one charge', async () => {
    const conversation = await open();
    const replies: string[] = [];
    for (const text of ['one', 'two', 'three', 'four', 'five']) replies.push((await turn(conversation.id, text)).reply);
    expect(replies).toEqual(['one', 'two', 'three', 'four', 'five']);

    const rows = await messages(conversation.id);
    expect(rows.map((m) => `${m.seq}:${m.role}:${m.text}`)).toEqual([
      '1:user:one',
      '2:assistant:one',
      '3:user:two',
      '4:assistant:two',
      '5:user:three',
      '6:assistant:three',
      '7:user:four',
      '8:assistant:four',
      '9:user:five',
      '10:assistant:five',
    ]);
    // The fifth turn's run read the whole transcript although two workflow runs came before it.
    const last = await h.orm.em.fork().findOneOrFail(Run, rows[9].runId!);
    expect((last.input.transcript as unknown[]).length).toBe(8);

    const handle = h.temporal.client.workflow.getHandle(conversationWorkflowId(conversation.id));
    const described = await handle.describe();
    expect(described.runId).not.toBe(described.raw.workflowExecutionInfo?.firstRunId);

    const runIds = rows.filter((m) => m.role === 'assistant').map((m) => m.runId!);
    expect(new Set(runIds).size).toBe(5);
    const charges = await waitFor(
      () => h.orm.em.fork().count(LedgerEntry, { runId: { $in: runIds }, kind: 'charge' }),
      (n) => n === 5,
    );
    expect(charges).toBe(5);
  }, 60_000);

  it('a repeated message id (sync or async) makes no second turn, run or charge', async () => {
    const conversation = await open();
    const id = randomUUID();
    const [a, b] = await Promise.all([turn(conversation.id, 'hi', id), turn(conversation.id, 'hi', id)]);
    expect(a.runId).toBe(b.runId);
    expect((await turn(conversation.id, 'hi', id)).duplicate).toBe(true);

    const inbound = randomUUID();
    const first = await deliverInbound(deps(), {
      workspaceId: account.workspaceId,
      conversationId: conversation.id,
      messageId: inbound,
      text: 'async',
    });
    const again = await deliverInbound(deps(), {
      workspaceId: account.workspaceId,
      conversationId: conversation.id,
      messageId: inbound,
      text: 'async',
    });
    expect([first.duplicate, again.duplicate]).toEqual([false, true]);
    const rows = await waitFor(
      () => messages(conversation.id),
      (r) => r.length === 4,
    );
    expect(rows.map((m) => `${m.role}:${m.text}`)).toEqual([
      'user:hi',
      'assistant:hi',
      'user:async',
      'assistant:async',
    ]);
    // The sync repeat of an async message waits for (and gets) the same turn.
    const sync = await turn(conversation.id, 'async', inbound);
    expect(sync).toMatchObject({ duplicate: true, reply: 'async', runId: rows[3].runId });
    expect(await h.orm.em.fork().count(Run, { metadata: { conversationId: conversation.id } })).toBe(2);
  }, 60_000);

  it('ends after SVC_CONVERSATION_IDLE_MINUTES without a message, and on request', async () => {
    const idle = await open();
    await turn(idle.id, 'anyone?');
    const ended = await waitFor(
      () => h.orm.em.fork().findOneOrFail(Conversation, idle.id),
      (c) => c.status === 'ended',
    );
    expect(ended).toMatchObject({ status: 'ended', endedReason: 'idle' });
    const result = await h.temporal.client.workflow.getHandle(conversationWorkflowId(idle.id)).result();
    expect(result).toBe('idle');

    const asked = await open();
    await endConversation(deps(), { workspaceId: account.workspaceId, conversationId: asked.id, reason: 'hangup' });
    await endConversation(deps(), { workspaceId: account.workspaceId, conversationId: asked.id, reason: 'again' });
    expect(await h.temporal.client.workflow.getHandle(conversationWorkflowId(asked.id)).result()).toBe('hangup');
    const row = await h.orm.em.fork().findOneOrFail(Conversation, asked.id);
    expect(row).toMatchObject({ status: 'ended', endedReason: 'hangup' });
    await expect(turn(asked.id, 'late')).rejects.toMatchObject({ code: 'conflict' });
  }, 60_000);
});
