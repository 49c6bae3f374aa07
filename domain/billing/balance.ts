import type { EntityManager } from '@mikro-orm/postgresql';
import { LedgerEntry, type LedgerKind } from '../../db/entities/LedgerEntry';
import type { Run } from '../../db/entities/Run';
import { Workspace } from '../../db/entities/Workspace';

/**
 * Locks the workspace row for the rest of the caller's transaction and returns its available balance
 * in micro-USD. Every move of credits takes this lock first, so concurrent holds, top-ups and
 * settlements of one workspace take turns and each sees what the others committed.
 */
export async function lockBalance(em: EntityManager, workspaceId: string): Promise<number> {
  const [row] = await em.execute<Array<{ balance: string }>>(
    'select credit_balance_micros as balance from workspaces where id = ? for update',
    [workspaceId],
  );
  if (!row) throw new Error(`workspace ${workspaceId} missing`);
  return Number(row.balance);
}

/**
 * Moves `amount` micro-USD into (positive) or out of (negative) the balance of the run's workspace, with
 * its ledger row, in the caller's transaction; the caller holds the lock ({@link lockBalance}).
 */
export async function moveCredits(
  em: EntityManager,
  run: Run,
  kind: LedgerKind,
  amount: number,
  description: string,
): Promise<void> {
  await em.execute('update workspaces set credit_balance_micros = credit_balance_micros + ? where id = ?', [
    amount,
    run.workspaceId,
  ]);
  recordCredits(em, run, kind, amount, description);
}

/**
 * The ledger row of a move of `amount` micro-USD (not yet flushed), without moving the balance: for moves
 * whose balance change the caller makes itself, e.g. a release and a charge netted in one update.
 */
export function recordCredits(
  em: EntityManager,
  run: Run,
  kind: LedgerKind,
  amount: number,
  description: string,
): void {
  const entry = new LedgerEntry(em.getReference(Workspace, run.workspaceId), kind, amount, description);
  entry.runId = run.id;
  entry.apiKeyId = run.apiKeyId;
  em.persist(entry);
}
