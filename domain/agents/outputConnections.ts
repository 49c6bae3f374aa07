import type { EntityManager } from '@mikro-orm/postgresql';
import { OutputConnection } from '../../db/entities/OutputConnection';

/**
 * The ids among `ids` that name no live connection of the workspace (an agent's `settings.saveOutput`).
 */
export async function unknownConnections(em: EntityManager, workspaceId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await em.find(OutputConnection, { id: { $in: ids }, workspaceId, deletedAt: null }, { fields: ['id'] });
  const known = new Set(found.map((c) => c.id));
  return ids.filter((id) => !known.has(id));
}
