import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditCheckpoint } from '../../db/entities/AuditCheckpoint';
import { AuditEntry } from '../../db/entities/AuditEntry';
import { entryHash, GENESIS_HASH } from './chain';
import { chainedFields } from './presenters';

/** The first link of a chain that does not hold: the entry, its 1-based position, and why. */
export interface BrokenLink {
  id: string;
  position: number;
  reason: string;
}

export interface ChainReport {
  workspaceId: string;
  /** How many entries were checked (those after the last checkpoint). */
  entries: number;
  /** The last position a prune removed (0 when nothing was ever cut): the chain is checked from the next. */
  checkpoint: number;
  broken: BrokenLink | null;
}

/**
 * Recomputes a workspace's audit chain from its first entry (docs/api/audit.md): every entry must sit at
 * its position, link to the hash of the entry before it (the first to the genesis hash), and hash to what
 * it stores. Stops at the first link that fails. A changed entry fails its own hash; a removed or inserted
 * one breaks its position or the next entry's link. Removing the newest entries is not visible from the
 * chain alone: compare the count and the last hash with a copy kept elsewhere. After a prune the chain
 * starts from its last checkpoint (prune.ts): the first remaining entry must sit right after the cut and
 * link to the hash of the last entry removed.
 */
export async function verifyAuditChain(em: EntityManager, workspaceId: string, batch = 1000): Promise<ChainReport> {
  const checkpoint = await em.findOne(AuditCheckpoint, { workspaceId }, { orderBy: { throughSeq: 'desc' } });
  const start = checkpoint?.throughSeq ?? 0;
  let position = start;
  let prevHash = checkpoint?.throughHash ?? GENESIS_HASH;
  for (;;) {
    const rows = await em.find(
      AuditEntry,
      { workspaceId, seq: { $gt: position } },
      { orderBy: { seq: 'asc' }, limit: batch },
    );
    for (const entry of rows) {
      position += 1;
      const broken = (reason: string): ChainReport => ({
        workspaceId,
        entries: position - start,
        checkpoint: start,
        broken: { id: entry.id, position, reason },
      });
      if (entry.seq !== position) return broken(`its place in the chain is ${entry.seq}, expected ${position}`);
      if (entry.prevHash !== prevHash) return broken("its prevHash is not the previous entry's hash");
      if (entryHash(entry.prevHash, chainedFields(entry)) !== entry.hash) {
        return broken('its content does not match its hash');
      }
      prevHash = entry.hash;
    }
    em.clear();
    if (rows.length < batch) return { workspaceId, entries: position - start, checkpoint: start, broken: null };
  }
}
