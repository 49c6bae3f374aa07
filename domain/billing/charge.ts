import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LedgerEntry } from '../../db/entities/LedgerEntry';
import type { Run } from '../../db/entities/Run';
import type { ModelRegistry } from '../models/registry';
import { lockBalance, recordCredits } from './balance';
import { costMicros, runPricing } from './cost';

/** What settling a run moves (docs/api/billing.md#what-a-run-is-charged): its whole hold back, its charge out. */
export interface Settlement {
  held: number;
  charged: number;
}

/** The fields of a run its settlement reads. */
export type SettledRun = Pick<
  Run,
  'id' | 'workspaceId' | 'apiKeyId' | 'agentId' | 'agentVersion' | 'heldMicros' | 'inputTokens' | 'outputTokens'
> & { startedAt: Date | null };

/**
 * What a run's settlement moves, in the caller's transaction, which holds the run locked and knows it
 * unsettled: the per-run price once the run started, and its tokens, never more than the hold plus the
 * available balance (so the balance never goes below 0, also for runs created before holds). A charge
 * the hold covers needs no look at the balance; a larger one locks the workspace's balance to cap it.
 */
export async function settlementOf(em: EntityManager, models: ModelRegistry, run: SettledRun): Promise<Settlement> {
  const cost = await runCost(em, models, run);
  const held = run.heldMicros;
  const charged = cost <= held ? cost : Math.min(cost, held + Math.max(await lockBalance(em, run.workspaceId), 0));
  return { held, charged };
}

/** {@link settlementOf} when the hold covers the charge (no balance to read, so no lock to take); else null. */
export async function settlementWithinHold(
  em: EntityManager,
  models: ModelRegistry,
  run: SettledRun,
): Promise<Settlement | null> {
  const cost = await runCost(em, models, run);
  return cost <= run.heldMicros ? { held: run.heldMicros, charged: cost } : null;
}

const runCost = async (em: EntityManager, models: ModelRegistry, run: SettledRun) =>
  costMicros(await runPricing(em, models, run), run.startedAt !== null, run);

/**
 * Settles a run when it ends, inside the caller's transaction (docs/api/billing.md#what-a-run-is-charged):
 * releases its whole hold (a `release` row) and charges what it used (a `charge` row), as
 * {@link settlementOf} computes. The ledger's unique charge per run makes a repeated call settle nothing
 * more. Sets `run.costMicros` to the charge and `run.heldMicros` to 0; the caller flushes.
 */
export async function settleRun(
  em: EntityManager,
  models: ModelRegistry,
  run: Run,
  /** The caller holds the run locked and knows it unsettled (not yet ended): the charge row need not be looked for. */
  opts: { unsettled?: boolean } = {},
): Promise<void> {
  if (!opts.unsettled && (await em.count(LedgerEntry, { runId: run.id, kind: 'charge' })) > 0) return;
  const { held, charged } = await settlementOf(em, models, run);
  // The release and the charge move the balance by their sum, in one update (none when they cancel out),
  // which takes the workspace row's lock itself. A positive sum cannot overdraw; a negative one is at most
  // the available balance read under that lock above.
  const net = held - charged;
  if (net !== 0) {
    await em.execute('update workspaces set credit_balance_micros = credit_balance_micros + ? where id = ?', [
      net,
      run.workspaceId,
    ]);
  }
  if (held > 0) recordCredits(em, run, 'release', held, `Release of run ${run.id}`);
  recordCredits(em, run, 'charge', -charged, `Run ${run.id}`);
  run.costMicros = charged;
  run.heldMicros = 0;
}

/**
 * {@link settleRun}'s writes as common table expressions for a statement that also writes the run
 * (domain/runs/statusWrites.ts sets its `cost_micros` and `held_micros`): the balance moved by the
 * release and the charge netted (no update when they cancel out), and the same ledger rows. They are
 * made only when the statement's locked run row `cur` has `settles` true.
 */
export function settlementWrites(
  run: Pick<Run, 'id' | 'workspaceId' | 'apiKeyId'>,
  { held, charged }: Settlement,
  now: Date,
): { sql: string; params: unknown[] } {
  const net = held - charged;
  const rows: Array<[string, number, string]> = [];
  if (held > 0) rows.push(['release', held, `Release of run ${run.id}`]);
  rows.push(['charge', -charged, `Run ${run.id}`]);
  const balance =
    net !== 0
      ? `settled_balance as (
           update workspaces set credit_balance_micros = credit_balance_micros + ?
           where id = ? and exists (select 1 from cur where cur.settles)),`
      : '';
  const sql = `${balance}
    settled_ledger as (
      insert into ledger_entries (id, created_at, updated_at, workspace_id, kind, amount_micros, description, api_key_id, run_id)
      select entry.* from cur, (values ${rows
        .map(() => '(?::uuid, ?::timestamptz, ?::timestamptz, ?::uuid, ?::text, ?::bigint, ?::text, ?::uuid, ?::uuid)')
        .join(', ')}) as entry
      where cur.settles),`;
  const params: unknown[] = net !== 0 ? [net, run.workspaceId] : [];
  for (const [kind, amount, description] of rows) {
    params.push(randomUUID(), now, now, run.workspaceId, kind, amount, description, run.apiKeyId, run.id);
  }
  return { sql, params };
}
