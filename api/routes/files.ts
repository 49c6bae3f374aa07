import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The ids among `ids` that name files of the workspace. File storage (CONTRACT §7) is not built
 * yet, so no id can name a file: run creation then reports every `input.fileIds` entry as unknown
 * (400), which is what CONTRACT §5 requires for a file that does not exist. The files routes will
 * replace this with a lookup in their table.
 */
export async function findWorkspaceFiles(_em: EntityManager, _workspaceId: string, _ids: string[]): Promise<string[]> {
  return [];
}
