import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
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
  indexes: [{ properties: ['workspace', 'createdAt'] }, { properties: ['parent', 'createdAt'] }],
  properties: {
    workspace: { kind: 'm:1', entity: () => Workspace, deleteRule: 'cascade' },
    // No cascade: a folder is deleted only when empty, and the foreign key keeps it so.
    parent: { kind: 'm:1', entity: () => Folder, nullable: true },
    name: { type: 'string' },
  },
});
