import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Run } from '../../db/entities/Run';
import { RunStep } from '../../db/entities/RunStep';
import { TERMINAL_STATUSES } from '../../workflows/messages';
import { ApiError } from '../errors';
import { estimateTokens } from '../models/builtin';
import type { ModelRegistry } from '../models/registry';
import type { Usage } from '../models/types';
import { lockBalance, moveCredits } from './balance';
import { costMicros, runPricing } from './cost';
import { microsToUsd } from './money';

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
  if (required > 0) await moveCredits(tx, run, 'hold', -required, `Hold for run ${run.id}`);
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
  const spent = costMicros(pricing, run.startedAt !== null, run);
  const target = spent + costMicros(pricing, false, await nextTurnTokens(em, run, turn));
  if (target <= run.heldMicros) return;
  const available = await lockBalance(em, run.workspaceId);
  const more = target - run.heldMicros;
  if (more > available) throw new InsufficientCredits(target, run.heldMicros + available);
  await moveCredits(em, run, 'hold', -more, `Hold for run ${run.id}`);
  run.heldMicros = target;
  await em.flush();
}

/**
 * The next turn's tokens, estimated: it reads at least what it is sent (`ceil(characters / 4)`) and at
 * least what the previous turn read (the history only grows), and writes about what the previous turn
 * wrote.
 */
async function nextTurnTokens(em: EntityManager, run: Run, turn: TurnReading): Promise<Usage> {
  const sent = estimateTokens(
    (turn.instructions ?? '') + JSON.stringify(turn.input ?? {}) + JSON.stringify(turn.messages),
  );
  // A run that has counted no tokens yet has no previous turn that read or wrote any: no look-up.
  const counted = run.inputTokens > 0 || run.outputTokens > 0;
  const previous = counted
    ? await em.findOne(
        RunStep,
        { runId: run.id, type: 'model', status: { $in: ['succeeded', 'failed'] } },
        { orderBy: { index: 'desc' } },
      )
    : null;
  const usage = previous?.detail.usage as Partial<Usage> | undefined;
  return {
    inputTokens: Math.max(sent, Number(usage?.inputTokens ?? 0)),
    outputTokens: Number(usage?.outputTokens ?? 0),
  };
}
