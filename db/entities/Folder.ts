import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { Workspace } from './Workspace';

/** A folder of the file library; `parent` null means the workspace root. */
export class Folder extends BaseEntity {
  constructor(
    public workspace: Workspace,
    public name: string,
    public parent: Folder | null = null,
  ) {
    super();
  }
}

export const FolderSchema = new EntitySchema<Folder, BaseEntity>({
  class: Folder,
  extends: 'BaseEntity',
  tableName: 'folders',
  // keyset pagination newest first, over the workspace and over one parent
  indexes: [
    keysetIndex('folders_workspace_id_created_at_index', 'folders', 'workspace_id'),
    keysetIndex('folders_parent_id_created_at_index', 'folders', 'parent_id'),
  ],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'folders_workspace_id_fkey',
    },
    // No cascade: a folder is deleted only when empty, and the foreign key keeps it so.
    parent: {
      kind: 'm:1',
      entity: () => Folder,
      nullable: true,
      deleteRule: 'no action',
      foreignKeyName: 'folders_parent_id_fkey',
    },
    name: { type: 'string' },
  },
});
