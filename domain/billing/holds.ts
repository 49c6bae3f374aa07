import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Run } from '../../db/entities/Run';
import { RunStep } from '../../db/entities/RunStep';
import { TERMINAL_STATUSES } from '../../workflows/messages';
import { ApiError } from '../errors';
import { estimateTokens } from '../models/builtin';
import type { ModelRegistry } from '../models/registry';
import type { ModelPricing, Usage } from '../models/types';
import { lockBalance, moveCredits } from './balance';
import { costMicros, runPricing } from './cost';
import { microsToUsd } from '../shared/money';

/**
 * Credit holds (docs/api/billing.md#holds): a run holds credits from its creation to its end, so runs
 * running side by side can never together spend more than the balance. Creation holds the required
 * amount; before every model turn the hold grows to cover the cost so far plus the next turn; the end of
 * the run settles it (domain/billing/charge.ts). The balance never goes below 0: every move happens
 * under the workspace row's lock and only when the balance covers it.
 */

/** A run that cannot cover its next model turn: it fails with `billing.insufficient_credits`. */
export class InsufficientCredits extends Error {
  constructor(
    readonly requiredMicros: number,
    readonly availableMicros: number,
  ) {
    super(
      `Not enough credits for the next model turn: required ${microsToUsd(requiredMicros)} USD, available ${microsToUsd(availableMicros)} USD`,
    );
    this.name = 'InsufficientCredits';
  }
}

/**
 * Run creation: moves `required` micro-USD from the workspace balance into a hold on `run` (not yet
 * flushed), in the transaction that inserts it. Throws 402 `billing.insufficient_credits` with
 * `{ required, available }` when the balance is below it.
 */
export async function holdForCreate(tx: EntityManager, run: Run, required: number): Promise<void> {
  const available = await lockBalance(tx, run.workspaceId);
  if (available < required) {
    throw new ApiError('billing.insufficient_credits', 'Not enough credits for this run', {
      required: microsToUsd(required),
      available: microsToUsd(available),
    });
  }
  if (required > 0) await moveCredits(tx, run, 'hold', -required, holdDescription(run.id));
  run.heldMicros = required;
}

/** What the model reads in a turn, the part of the turn's request its input estimate counts. */
export interface TurnReading {
  instructions: string | null;
  input: unknown;
  messages: unknown[];
}

/**
 * Before a model turn, in its own transaction: the run's cost so far plus the next turn's estimate must
 * fit its hold plus the available balance. The hold grows to that target when it is smaller (never
 * shrinks), so a retried activity tops up to the same target instead of holding twice. Throws
 * {@link InsufficientCredits} when the balance cannot cover the difference (nothing moves). A finished
 * run is left alone: it was settled.
 */
export async function coverNextTurn(
  em: EntityManager,
  models: ModelRegistry,
  /** The run's id, or its row when the caller's transaction already holds it locked (`select … for update`). */
  runOrId: string | Run,
  turn: TurnReading,
): Promise<void> {
  // The run row first, then the workspace row: the order settlement takes them in.
  const run =
    typeof runOrId === 'string'
      ? await em.findOneOrFail(Run, runOrId, { lockMode: LockMode.PESSIMISTIC_WRITE })
      : runOrId;
  if (TERMINAL_STATUSES.includes(run.status)) return;
  const pricing = await runPricing(em, models, run);
  const target = turnHoldTarget(pricing, run, nextTurnTokens(turn, await previousTurnUsage(em, run)));
  if (target <= run.heldMicros) return;
  const available = await lockBalance(em, run.workspaceId);
  const more = target - run.heldMicros;
  if (more > available) throw new InsufficientCredits(target, run.heldMicros + available);
  await moveCredits(em, run, 'hold', -more, holdDescription(run.id));
  run.heldMicros = target;
  await em.flush();
}

/** What a run's hold must reach before its next turn: its cost so far plus the next turn's, at `pricing`. */
export function turnHoldTarget(
  pricing: ModelPricing,
  run: { startedAt: Date | null; inputTokens: number; outputTokens: number },
  next: Usage,
): number {
  return costMicros(pricing, run.startedAt !== null, run) + costMicros(pricing, false, next);
}

/**
 * The usage of the run's last finished model turn, when the run has counted tokens; a run that has
 * counted none has no previous turn that read or wrote any: no look-up.
 */
async function previousTurnUsage(
  em: EntityManager,
  run: Pick<Run, 'id' | 'inputTokens' | 'outputTokens'>,
): Promise<Partial<Usage> | undefined> {
  if (run.inputTokens === 0 && run.outputTokens === 0) return undefined;
  const previous = await em.findOne(
    RunStep,
    { runId: run.id, type: 'model', status: { $in: ['succeeded', 'failed'] } },
    { orderBy: { index: 'desc' } },
  );
  return previous?.detail.usage as Partial<Usage> | undefined;
}

/**
 * The next turn's tokens, estimated: it reads at least what it is sent (`ceil(characters / 4)`) and at
 * least what the previous turn read (the history only grows), and writes about what the previous turn
 * wrote (`previous`: that turn's usage, when the run has counted tokens).
 */
export function nextTurnTokens(turn: TurnReading, previous: Partial<Usage> | undefined): Usage {
  const sent = estimateTokens(
    (turn.instructions ?? '') + JSON.stringify(turn.input ?? {}) + JSON.stringify(turn.messages),
  );
  return {
    inputTokens: Math.max(sent, Number(previous?.inputTokens ?? 0)),
    outputTokens: Number(previous?.outputTokens ?? 0),
  };
}

const holdDescription = (runId: string) => `Hold for run ${runId}`;

/** The run a hold is raised for, as read unlocked before the statement that raises it. */
export interface HoldFrom {
  id: string;
  workspaceId: string;
  apiKeyId: string | null;
  heldMicros: number;
  inputTokens: number;
  outputTokens: number;
  startedAt: Date | null;
}

/**
 * {@link coverNextTurn}'s writes as common table expressions for one statement, when the hold must grow
 * from `run.heldMicros` to `target`: they lock the run's row (the run row first, then the workspace row,
 * as settlement takes them) and write only while it is unfinished and still has what the target was
 * computed from (the same hold, tokens and start); then they take the difference from the balance only
 * while the balance covers it (the update's own condition, judged on the newest row under its lock), and
 * then raise the hold and store its ledger row. `raised` is the SQL condition that holds when all of it was
 * written; when it was not, nothing was, and the caller covers the turn in a transaction instead.
 */
export function holdWrites(
  run: HoldFrom,
  target: number,
  now: Date,
): { sql: string; params: unknown[]; raised: string } {
  const more = target - run.heldMicros;
  const sql = `hold_run as (
      select r.id from runs r
      where r.id = ? and r.status not in (${TERMINAL_STATUSES.map((s) => `'${s}'`).join(', ')})
        and r.held_micros = ? and r.input_tokens = ? and r.output_tokens = ? and (r.started_at is not null) = ?
      for update),
    hold_balance as (
      update workspaces w set credit_balance_micros = w.credit_balance_micros - ?
      from hold_run where w.id = ? and w.credit_balance_micros >= ?
      returning w.id),
    hold_raised as (
      update runs r set held_micros = ?, updated_at = ?
      from hold_balance where r.id = ?
      returning r.id),
    hold_ledger as (
      insert into ledger_entries (id, created_at, updated_at, workspace_id, kind, amount_micros, description, api_key_id, run_id)
      select ?::uuid, ?::timestamptz, ?::timestamptz, ?::uuid, 'hold', ?::bigint, ?::text, ?::uuid, ?::uuid
      from hold_raised),`;
  const params = [
    run.id,
    run.heldMicros,
    run.inputTokens,
    run.outputTokens,
    run.startedAt !== null,
    more,
    run.workspaceId,
    more,
    target,
    now,
    run.id,
    randomUUID(),
    now,
    now,
    run.workspaceId,
    -more,
    holdDescription(run.id),
    run.apiKeyId,
    run.id,
  ];
  return { sql, params, raised: 'exists (select 1 from hold_raised)' };
}
