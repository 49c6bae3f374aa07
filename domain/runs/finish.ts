import type { EntityManager } from '@mikro-orm/postgresql';
import { TERMINAL_STATUSES as TERMINAL, type RunStatus } from '../../workflows/messages';
import type { TransitionPatch } from '../../workflows/activityTypes';
import type { ModelRegistry } from '../models/registry';
import { settlementOf, settlementWithinHold } from '../billing/charge';
import { executePrepared } from '../../db/preparedStatement';
import { writeStatus, type StatusRow } from './statusWrites';

/**
 * Settles the run's credits and gives it its terminal status, in the caller's transaction: the row's
 * lock and what the settlement reads, then (only when the charge exceeds the hold) the balance's lock,
 * then one statement for the balance, the ledger rows, the row and its event.
 */
export async function finishInTransaction(
  em: EntityManager,
  models: ModelRegistry,
  runId: string,
  patch: TransitionPatch,
): Promise<StatusRow> {
  const run = await readSettling(em, runId, 'for update');
  if (!run) throw new Error(`run ${runId} missing`);
  // A run is settled in the transaction that ends it, so the locked, unfinished row is unsettled.
  const settle = TERMINAL.includes(run.status) ? undefined : { run, settlement: await settlementOf(em, models, run) };
  const written = await writeStatus(em, runId, patch, { settle });
  return written!.run;
}

/**
 * finishInTransaction in one statement after one read, when the hold covers the charge (most runs: no
 * balance to read under its lock): the settlement is computed from the row read unlocked, and the
 * statement settles and ends the run only while the row, once locked, still has what it was computed
 * from (unfinished, the same hold, tokens and start). Null when it did not, or the charge exceeds the
 * hold, or the run has ended: the caller then finishes in a transaction.
 */
export async function finishAtOnce(
  em: EntityManager,
  models: ModelRegistry,
  runId: string,
  patch: TransitionPatch,
): Promise<StatusRow | null> {
  const run = await readSettling(em, runId, '');
  if (!run || TERMINAL.includes(run.status)) return null;
  const settlement = await settlementWithinHold(em, models, run);
  if (!settlement) return null;
  const from = { ...run, started: run.startedAt !== null };
  const written = await writeStatus(em, runId, patch, { settle: { run, settlement, from } });
  return written?.settled ? written.run : null;
}

type SettlingRow = Parameters<typeof settlementOf>[2] & { status: RunStatus };

/** What settling the run reads, with its status. */
async function readSettling(
  em: EntityManager,
  runId: string,
  lock: 'for update' | '',
): Promise<SettlingRow | undefined> {
  const [run] = await executePrepared<SettlingRow>(
    em,
    `select id, workspace_id as "workspaceId", api_key_id as "apiKeyId", agent_id as "agentId",
            agent_version as "agentVersion", status, held_micros::float8 as "heldMicros", started_at as "startedAt",
            input_tokens as "inputTokens", output_tokens as "outputTokens"
       from runs where id = ? ${lock}`,
    [runId],
  );
  return run;
}
