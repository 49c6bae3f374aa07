import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { RunMessage } from '../../db/entities/RunMessage';
import type { ChatMessage, ToolCall } from '../../workflows/agentTurn';

/**
 * A run's conversation with its model, in PostgreSQL (`run_messages`): the run workflow names a
 * message by its index and the activities read and write the bodies, so the workflow's history holds
 * ids, not the conversation (docs/api/runs.md#how-a-run-executes-operators).
 */

/** The messages before `before`, in order: what the model reads for the turn whose reply goes at `before`. */
export async function loadConversation(em: EntityManager, runId: string, before: number): Promise<ChatMessage[]> {
  const rows = await em.find(RunMessage, { runId, index: { $lt: before } }, { orderBy: { index: 'asc' } });
  return rows.map((r) => r.message);
}

/** The message at `index`, if one is stored (a retried activity finds its own message here). */
export async function findMessage(em: EntityManager, runId: string, index: number): Promise<ChatMessage | null> {
  const row = await em.findOne(RunMessage, { runId, index });
  return row?.message ?? null;
}

/**
 * The tool call `callId` of the last assistant message before `index` (the turn whose calls the tool
 * results from `index` on answer), or null when there is none.
 */
export async function findToolCall(
  em: EntityManager,
  runId: string,
  index: number,
  callId: string,
): Promise<ToolCall | null> {
  const row = await em.findOne(
    RunMessage,
    { runId, index: { $lt: index }, role: 'assistant' },
    { orderBy: { index: 'desc' } },
  );
  const message = row?.message;
  if (message?.role !== 'assistant') return null;
  return message.toolCalls?.find((c) => c.id === callId) ?? null;
}

/**
 * Stores `message` at `index` unless a message is already there: a retried activity appends once, and
 * the first message stored at an index is the one that stays.
 */
export async function appendMessage(
  em: EntityManager,
  runId: string,
  index: number,
  message: ChatMessage,
): Promise<void> {
  const now = new Date();
  await em.getConnection().execute(
    `insert into run_messages (id, created_at, updated_at, run_id, index, role, message)
       values (?, ?, ?, ?, ?, ?, ?::jsonb) on conflict (run_id, index) do nothing`,
    [randomUUID(), now, now, runId, index, message.role, JSON.stringify(message)],
    'run',
    em.getTransactionContext(),
  );
}
