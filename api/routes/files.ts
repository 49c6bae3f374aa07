// TEMP STUB (replaced by the files helper)
import type { EntityManager } from '@mikro-orm/postgresql';
export async function findWorkspaceFiles(_em: EntityManager, _ws: string, _ids: string[]): Promise<string[]> {
  return [];
}
