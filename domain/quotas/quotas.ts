import type { EntityManager } from '@mikro-orm/postgresql';
import { PLAN_QUOTAS, type Plan, type QuotaName } from '../../db/entities/Workspace';
import { errors } from '../errors';

/**
 * Per-plan quotas (docs/api/limits.md#quotas): what a workspace may hold at once. Every create that adds
 * to a quota claims it in the transaction that inserts its row: the claim locks the workspace row (the
 * lock credit holds take, so a public submission that holds credits and claims storage in one transaction
 * takes one lock, never two in either order), counts what the committed rows use, and refuses with 409
 * `conflict` when the create would pass the plan's cap. N parallel creates take turns on the lock, and
 * each counts the rows the earlier ones committed.
 */

/** What a workspace uses of each quota, counted from its rows (live rows only where rows are kept). */
const USED: Record<QuotaName, string> = {
  storageBytes: 'select coalesce(sum(size), 0) as used from files where workspace_id = ?',
  schedules:
    "select (select count(*) from flows where workspace_id = ? and trigger->>'type' = 'schedule')" +
    ' + (select count(*) from saved_tables where workspace_id = ? and cron is not null) as used',
  flows: 'select count(*) as used from flows where workspace_id = ?',
  savedTables: 'select count(*) as used from saved_tables where workspace_id = ?',
  phoneNumbers: 'select count(*) as used from phone_numbers where workspace_id = ? and deleted_at is null',
  whatsappAccounts: 'select count(*) as used from whatsapp_accounts where workspace_id = ? and deleted_at is null',
};

/** `details.quota` of the 409 when a quota is full: `requested` is what the refused create would add. */
export interface QuotaDetails {
  name: QuotaName;
  limit: number;
  used: number;
  requested: number;
}

const MESSAGES: Record<QuotaName, string> = {
  storageBytes: "The workspace's file storage is full for its plan",
  schedules: 'The workspace has as many schedules as its plan allows',
  flows: 'The workspace has as many flows as its plan allows',
  savedTables: 'The workspace has as many saved tables as its plan allows',
  phoneNumbers: 'The workspace has as many phone numbers as its plan allows',
  whatsappAccounts: 'The workspace has as many WhatsApp accounts as its plan allows',
};

/** 409 `conflict` with `details.quota`. */
export function quotaExceeded(quota: QuotaDetails) {
  return errors.conflict(MESSAGES[quota.name], { quota });
}

/** What the workspace uses of one quota now (committed rows, and the caller's own uncommitted ones). */
export async function quotaUsed(em: EntityManager, workspaceId: string, name: QuotaName): Promise<number> {
  const sql = USED[name];
  const params = sql.split('?').slice(1).map(() => workspaceId);
  const [row] = await em.execute<Array<{ used: string | number }>>(sql, params);
  return Number(row?.used ?? 0);
}

/**
 * Claims `amounts` (a count of 1 for a row, bytes for storage) of the workspace's quotas, in `tx`, the
 * transaction that inserts what is claimed; the workspace row stays locked until it ends.
 * @throws 409 `conflict` with `details.quota` for the first quota the claim would pass; an Error when
 *   `tx` is not a transaction (a claim outside one would lock nothing)
 */
export async function claimQuota(
  tx: EntityManager,
  workspaceId: string,
  amounts: Partial<Record<QuotaName, number>>,
): Promise<void> {
  if (!tx.isInTransaction()) throw new Error('claimQuota needs the transaction that inserts the claimed rows');
  const [workspace] = await tx.execute<Array<{ plan: Plan }>>('select plan from workspaces where id = ? for update', [
    workspaceId,
  ]);
  if (!workspace) throw errors.notFound('Workspace');
  const caps = PLAN_QUOTAS[workspace.plan] ?? PLAN_QUOTAS.free_trial;
  for (const [name, requested] of Object.entries(amounts) as Array<[QuotaName, number]>) {
    if (!requested || requested <= 0) continue;
    const used = await quotaUsed(tx, workspaceId, name);
    if (used + requested > caps[name]) throw quotaExceeded({ name, limit: caps[name], used, requested });
  }
}
