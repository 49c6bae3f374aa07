import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditCheckpoint } from '../../db/entities/AuditCheckpoint';
import { verifyAuditChain, type BrokenLink } from './verify';

/** What a prune did: nothing (no entry before the instant), refused (the chain is broken), or a cut. */
export type PruneResult =
  | { kind: 'nothing'; throughSeq: number }
  | { kind: 'broken'; broken: BrokenLink }
  | { kind: 'cut'; throughSeq: number; throughHash: string; removed: number };

/**
 * Cuts the oldest entries of a workspace's audit chain, those recorded before `before` (docs/api/audit.md#retention).
 * Only a prefix is ever cut: the entries from the start of what remains up to the last one before the first
 * entry at or after `before`. The chain is verified first and a broken one is left as it is, so a prune
 * never removes the evidence of tampering. The cut is recorded as a checkpoint (the last position removed
 * and its hash) in the same transaction as the deletion, and `audit:verify` goes on from it. The
 * append-only trigger lets these deletions through only because this transaction names the workspace in
 * `svc.audit_prune` and the checkpoint covers them; the setting ends with the transaction.
 */
export async function pruneAuditChain(em: EntityManager, workspaceId: string, before: Date): Promise<PruneResult> {
  return em.transactional(async (tx) => {
    // the recorder's lock: no entry joins the chain while it is verified and cut
    await tx.execute(`select pg_advisory_xact_lock(hashtextextended('audit:' || ?, 0))`, [workspaceId]);
    const report = await verifyAuditChain(tx, workspaceId);
    if (report.broken) return { kind: 'broken', broken: report.broken };
    const [bounds] = await tx.execute<Array<{ first: number | null; through: number | null }>>(
      `select min(seq) as first,
              coalesce((select min(seq) from audit_entries where workspace_id = ? and at >= ?) - 1, max(seq)) as through
         from audit_entries where workspace_id = ?`,
      [workspaceId, before, workspaceId],
    );
    const first = bounds.first === null ? null : Number(bounds.first);
    const through = bounds.through === null ? null : Number(bounds.through);
    if (first === null || through === null || through < first) {
      return { kind: 'nothing', throughSeq: first === null ? 0 : first - 1 };
    }
    const [last] = await tx.execute<Array<{ hash: string }>>(
      'select hash from audit_entries where workspace_id = ? and seq = ?',
      [workspaceId, through],
    );
    const removed = through - first + 1;
    tx.persist(new AuditCheckpoint(randomUUID(), workspaceId, through, last.hash, removed, before, new Date()));
    await tx.flush();
    await tx.execute(`select set_config('svc.audit_prune', ?, true)`, [workspaceId]);
    const deleted = await tx.execute<Array<{ seq: number }>>(
      'delete from audit_entries where workspace_id = ? and seq <= ? returning seq',
      [workspaceId, through],
    );
    await tx.execute(`select set_config('svc.audit_prune', '', true)`);
    // the verified chain is gapless, so the prefix holds exactly this many entries
    if (deleted.length !== removed) throw new Error(`audit prune removed ${deleted.length} of ${removed} entries`);
    return { kind: 'cut', throughSeq: through, throughHash: last.hash, removed };
  });
}
