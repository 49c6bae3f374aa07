import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditAction, AuditResourceType } from './actions';
import { entryHash, GENESIS_HASH, type ChainedFields } from './chain';
import type { AuditContext } from './context';

/** One change to record: what was done to which resource, and what a reader needs to know of it (no secrets). */
export interface AuditChange {
  action: AuditAction;
  resourceType: AuditResourceType;
  resourceId: string;
  details?: Record<string, unknown>;
}

/**
 * Appends an entry for `change` to the workspace's audit chain (docs/api/audit.md), inside `tx`, the
 * transaction that makes the change: both commit or neither does. Entries of one workspace are chained
 * one after the other, so the transaction first takes the workspace's audit lock (an advisory lock held
 * until it ends); a concurrent writer waits there and then links to this entry, never to the same
 * predecessor. Call it last in the transaction, after the change's own locks, so lock order is always
 * the same. Throws when `tx` is not in a transaction: an entry written apart from its change could
 * record a change that never happened, or miss one that did.
 */
export async function recordAudit(tx: EntityManager, context: AuditContext, change: AuditChange): Promise<void> {
  if (!tx.isInTransaction()) throw new Error('recordAudit must run in the transaction of the change it records');
  const { workspaceId } = context;
  await tx.execute(`select pg_advisory_xact_lock(hashtextextended('audit:' || ?, 0))`, [workspaceId]);
  const [newest] = await tx.execute<Array<{ seq: number; hash: string }>>(
    'select seq, hash from audit_entries where workspace_id = ? order by seq desc limit 1',
    [workspaceId],
  );
  // A log pruned to nothing goes on from where the prune cut it (docs/api/audit.md#retention).
  const [last] = newest
    ? [newest]
    : await tx.execute<Array<{ seq: number; hash: string }>>(
        `select through_seq as seq, through_hash as hash from audit_checkpoints where workspace_id = ?
          order by through_seq desc limit 1`,
        [workspaceId],
      );
  const seq = last ? Number(last.seq) + 1 : 1;
  const prevHash = last?.hash ?? GENESIS_HASH;
  const fields: ChainedFields = {
    id: randomUUID(),
    at: new Date().toISOString(),
    action: change.action,
    resourceType: change.resourceType,
    resourceId: change.resourceId,
    actor: context.actor,
    ip: context.ip,
    userAgent: context.userAgent,
    requestId: context.requestId,
    // as it will read back from jsonb, so the hash is computed over what is stored
    details: JSON.parse(JSON.stringify(change.details ?? {})) as Record<string, unknown>,
  };
  const actor = context.actor;
  await tx.execute(
    `insert into audit_entries (id, workspace_id, seq, at, action, resource_type, resource_id, actor_type,
       actor_user_id, actor_key_id, ip, user_agent, request_id, details, prev_hash, hash)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?)`,
    [
      fields.id,
      workspaceId,
      seq,
      fields.at,
      fields.action,
      fields.resourceType,
      fields.resourceId,
      actor.type,
      actor.type === 'user' ? actor.userId : null,
      actor.type === 'api_key' ? actor.keyId : null,
      fields.ip,
      fields.userAgent,
      fields.requestId,
      JSON.stringify(fields.details),
      prevHash,
      entryHash(prevHash, fields),
    ],
  );
}
