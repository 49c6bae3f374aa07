import type { EntityManager } from '@mikro-orm/postgresql';
import { executePrepared } from '../../db/preparedStatement';
import type { ModelTurnRequest } from '../../workflows/activityTypes';
import type { ChatMessage } from '../../workflows/agentTurn';
import { TERMINAL_STATUSES as TERMINAL, type RunStatus } from '../../workflows/messages';
import { findVersionDefinition } from '../agents/versionCache';
import { coverNextTurn, holdWrites, nextTurnTokens, turnHoldTarget, type HoldFrom } from '../billing/holds';
import { runPricing } from '../billing/cost';
import type { ModelRegistry } from '../models/registry';
import type { Usage } from '../models/types';
import type { ToolRegistry } from '../tools/registry';
import { RunNotExecutable } from './execution';
import { stepStatement, writeStep } from './stepWrites';

/**
 * The start of a stored model turn (storedTurns.ts) before its model call: what the model reads, the credit
 * hold and the running step, in two statements with no transaction (docs/api/billing.md#holds):
 *
 * 1. one read, unlocked: the run's row, its messages up to `at` and its last finished model turn's usage;
 * 2. the running step alone when the hold already covers the turn (or the run has ended, which a hold never
 *    follows), else the hold and the step in one statement that writes only while the run's locked row still
 *    has what the hold was computed from and the balance covers the difference (billing/holds.ts holdWrites).
 *
 * Only this run's own turns grow its hold or its tokens, one after another, and its end only clears the
 * hold, so a hold judged covered on the unlocked row stays covered. When the one statement wrote nothing
 * (the row changed, or the balance is short) the turn is covered in a transaction under the run's lock as
 * before, which also raises InsufficientCredits, and no step is recorded for a turn that cannot be covered.
 */

/** What a turn's start reads. */
interface TurnRow extends HoldFrom {
  agentId: string;
  agentVersion: number;
  status: RunStatus;
  input: Record<string, unknown>;
  messages: Array<{ index: number; message: ChatMessage }>;
  lastUsage: Partial<Usage> | null;
}

export type StartedTurn = { stored: ChatMessage } | { request: ModelTurnRequest; listed: Set<string> };

/**
 * Reads the turn whose reply goes at `at`, and unless an earlier attempt stored that reply, covers it and
 * records its running step at `index`. Rejects with RunNotExecutable without the run or its agent version,
 * with InsufficientCredits when the turn cannot be covered.
 */
export async function startTurn(
  em: EntityManager,
  deps: { models: ModelRegistry; tools: ToolRegistry },
  runId: string,
  index: number,
  at: number,
): Promise<StartedTurn> {
  const [row] = await executePrepared<TurnRow>(
    em,
    `select r.id, r.workspace_id as "workspaceId", r.api_key_id as "apiKeyId", r.agent_id as "agentId",
            r.agent_version as "agentVersion", r.status, r.input, r.held_micros::float8 as "heldMicros",
            r.started_at as "startedAt", r.input_tokens as "inputTokens", r.output_tokens as "outputTokens",
            (select coalesce(jsonb_agg(jsonb_build_object('index', m.index, 'message', m.message) order by m.index), '[]')
               from run_messages m where m.run_id = r.id and m.index <= ?) as messages,
            (select s.detail -> 'usage' from run_steps s
               where s.run_id = r.id and s.type = 'model' and s.status in ('succeeded', 'failed')
               order by s.index desc limit 1) as "lastUsage"
       from runs r where r.id = ?`,
    [at, runId],
  );
  if (!row) throw new RunNotExecutable('run row missing');
  const last = row.messages[row.messages.length - 1];
  if (last?.index === at) return { stored: last.message };
  const version = await findVersionDefinition(em, row.agentId, row.agentVersion);
  if (!version) throw new RunNotExecutable('agent version missing');
  const request: ModelTurnRequest = {
    modelId: version.modelId,
    instructions: version.instructions,
    input: row.input,
    messages: row.messages.map((m) => m.message),
    tools: deps.tools.specs(version.tools),
  };
  const started = { request, listed: new Set(version.tools) };
  const step = { runId, index, type: 'model', status: 'running', detail: { modelId: request.modelId } } as const;

  const counted = row.inputTokens > 0 || row.outputTokens > 0;
  const pricing = await runPricing(em, deps.models, row);
  const target = turnHoldTarget(
    pricing,
    row,
    nextTurnTokens(request, counted ? (row.lastUsage ?? undefined) : undefined),
  );
  if (TERMINAL.includes(row.status) || target <= row.heldMicros) {
    await writeStep(em, runId, index, step.type, step.status, step.detail);
    return started;
  }
  const hold = holdWrites(row, target, new Date());
  const written = stepStatement({ ...step, when: hold.raised });
  const applied = await executePrepared<unknown>(em, `with ${hold.sql} ${written.ctes} ${written.sql} returning 1`, [
    ...hold.params,
    ...written.params,
  ]);
  if (applied.length > 0) return started;
  // The row changed since the read, or the balance is short: under the run's lock, as before.
  await em.transactional(async (tx) => {
    await coverNextTurn(tx, deps.models, runId, request);
    await writeStep(tx, runId, index, step.type, step.status, step.detail);
  });
  return started;
}
