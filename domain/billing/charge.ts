import type { EntityManager } from '@mikro-orm/postgresql';
import { LedgerEntry } from '../../db/entities/LedgerEntry';
import type { Run } from '../../db/entities/Run';
import type { ModelRegistry } from '../models/registry';
import { lockBalance, recordCredits } from './balance';
import { costMicros, runPricing } from './cost';

/**
 * Settles a run when it ends, inside the caller's transaction (docs/api/billing.md#what-a-run-is-charged):
 * releases its whole hold (a `release` row) and charges what it used (a `charge` row): the per-run price
 * once the run started, and its tokens. The charge never exceeds the hold plus the available balance, so
 * the balance never goes below 0, also for runs created before holds (no hold, charged from the balance).
 * The ledger's unique charge per run makes a repeated call settle nothing more. Sets `run.costMicros` to
 * the charge and `run.heldMicros` to 0; the caller flushes.
 */
export async function settleRun(
  em: EntityManager,
  models: ModelRegistry,
  run: Run,
  /** The caller holds the run locked and knows it unsettled (not yet ended): the charge row need not be looked for. */
  opts: { unsettled?: boolean } = {},
): Promise<void> {
  if (!opts.unsettled && (await em.count(LedgerEntry, { runId: run.id, kind: 'charge' })) > 0) return;
  const cost = costMicros(await runPricing(em, models, run), run.startedAt !== null, run);
  const held = run.heldMicros;
  // A charge the hold covers needs no look at the balance; a larger one is capped by what is available.
  const charged = cost <= held ? cost : Math.min(cost, held + Math.max(await lockBalance(em, run.workspaceId), 0));
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
