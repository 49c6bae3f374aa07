import type { EntityManager } from '@mikro-orm/postgresql';
import { LedgerEntry } from '../../db/entities/LedgerEntry';
import type { Run } from '../../db/entities/Run';
import type { ModelRegistry } from '../models/registry';
import { lockBalance, moveCredits } from './balance';
import { costMicros, runPricing } from './cost';

/**
 * Settles a run when it ends, inside the caller's transaction (docs/api/billing.md#what-a-run-is-charged):
 * releases its whole hold (a `release` row) and charges what it used (a `charge` row): the per-run price
 * once the run started, and its tokens. The charge never exceeds the hold plus the available balance, so
 * the balance never goes below 0, also for runs created before holds (no hold, charged from the balance).
 * The ledger's unique charge per run makes a repeated call settle nothing more. Sets `run.costMicros` to
 * the charge and `run.heldMicros` to 0; the caller flushes.
 */
export async function settleRun(em: EntityManager, models: ModelRegistry, run: Run): Promise<void> {
  if ((await em.count(LedgerEntry, { runId: run.id, kind: 'charge' })) > 0) return;
  const cost = costMicros(await runPricing(em, models, run), run.startedAt !== null, run);
  const available = await lockBalance(em, run.workspaceId);
  const held = run.heldMicros;
  const charged = Math.min(cost, held + Math.max(available, 0));
  if (held > 0) await moveCredits(em, run, 'release', held, `Release of run ${run.id}`);
  await moveCredits(em, run, 'charge', -charged, `Run ${run.id}`);
  run.costMicros = charged;
  run.heldMicros = 0;
}
