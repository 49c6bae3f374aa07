import type { EntityManager } from '@mikro-orm/postgresql';
import { SavedTable } from '../../db/entities/SavedTable';
import { errors } from '../errors';

/**
 * The saved tables an agent body links (`savedTableIds`), deduplicated. An id naming no saved table of
 * the workspace is in the body, not the path: 400 `validation_error` at its index.
 */
export async function savedTablesFromBody(em: EntityManager, workspaceId: string, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = new Set(
    (await em.find(SavedTable, { id: { $in: unique }, workspaceId }, { fields: ['id'] })).map((t) => t.id),
  );
  const issues = ids.flatMap((id, i) =>
    found.has(id) ? [] : [{ path: `savedTableIds.${i}`, message: `Unknown saved table ${id}` }],
  );
  if (issues.length > 0) throw errors.validation(issues);
  return unique;
}

/** Each linked saved table's read, for the definition route (tables deleted since are left out). */
export async function savedReads(
  em: EntityManager,
  workspaceId: string,
  ids: string[],
): Promise<Array<{ savedTableId: string; name: string; read: Record<string, unknown> }>> {
  if (ids.length === 0) return [];
  const tables = await em.find(SavedTable, { id: { $in: ids }, workspaceId });
  const byId = new Map(tables.map((t) => [t.id, t]));
  return ids.flatMap((id) => {
    const t = byId.get(id);
    return t ? [{ savedTableId: t.id, name: t.name, read: t.read }] : [];
  });
}
