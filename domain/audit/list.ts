import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEntry } from '../../db/entities/AuditEntry';
import { decodePositionCursor, encodePositionCursor } from '../shared/pagination';
import type { AuditAction, AuditResourceType } from './actions';
import { presentAuditEntry, type AuditEntryView } from './presenters';

/** The filters of `GET /v1/audit`, all optional; `from` inclusive, `to` exclusive. */
export interface AuditFilter {
  action?: AuditAction;
  resourceType?: AuditResourceType;
  resourceId?: string;
  /** A user's or a key's id: the entries that actor made. */
  actorId?: string;
  from?: Date;
  to?: Date;
}

function whereOf(workspaceId: string, filter: AuditFilter, beforeSeq?: number): FilterQuery<AuditEntry> {
  const at: Record<string, Date> = {};
  if (filter.from) at.$gte = filter.from;
  if (filter.to) at.$lt = filter.to;
  return {
    workspaceId,
    ...(filter.action ? { action: filter.action } : {}),
    ...(filter.resourceType ? { resourceType: filter.resourceType } : {}),
    ...(filter.resourceId ? { resourceId: filter.resourceId } : {}),
    ...(filter.actorId ? { $or: [{ actorUserId: filter.actorId }, { actorKeyId: filter.actorId }] } : {}),
    ...(Object.keys(at).length ? { at } : {}),
    ...(beforeSeq !== undefined ? { seq: { $lt: beforeSeq } } : {}),
  };
}

/**
 * One page of the workspace's audit log, newest first (by place in the chain), with the filters applied.
 * The cursor is the place of the last entry served; `from` after `to` matches nothing. Throws
 * `validation_error` for a malformed cursor.
 */
export async function listAuditEntries(
  em: EntityManager,
  workspaceId: string,
  filter: AuditFilter,
  page: { limit: number; cursor?: string },
): Promise<{ entries: AuditEntryView[]; nextCursor: string | null }> {
  const rows = await em.find(AuditEntry, whereOf(workspaceId, filter, decodePositionCursor(page.cursor)), {
    orderBy: { seq: 'desc' },
    limit: page.limit + 1,
  });
  const items = rows.slice(0, page.limit);
  const last = items[items.length - 1];
  return {
    entries: items.map(presentAuditEntry),
    nextCursor: rows.length > page.limit ? encodePositionCursor(last.seq) : null,
  };
}

/** Every entry matching the filter, newest first, read `batch` at a time so an export never holds the whole log. */
export async function* allAuditEntries(
  em: EntityManager,
  workspaceId: string,
  filter: AuditFilter,
  batch = 500,
): AsyncGenerator<AuditEntryView> {
  let before: number | undefined;
  for (;;) {
    const rows = await em.find(AuditEntry, whereOf(workspaceId, filter, before), {
      orderBy: { seq: 'desc' },
      limit: batch,
    });
    for (const row of rows) yield presentAuditEntry(row);
    if (rows.length < batch) return;
    before = rows[rows.length - 1].seq;
    em.clear();
  }
}
