import { BigIntType, EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { Folder } from './Folder';
import { Workspace } from './Workspace';

/**
 * An uploaded file's metadata (docs/api/files.md). The bytes live in the storage named by
 * `SVC_STORAGE_URL` under `storageKey`, which the service chooses (the file id) and never exposes.
 */
export class File extends BaseEntity {
  constructor(
    public workspace: Workspace,
    public filename: string,
    public mime: string,
    public size: number,
    public sha256: string,
    public storageKey: string,
    public folder: Folder | null = null,
  ) {
    super();
  }
}

export const FileSchema = new EntitySchema<File, BaseEntity>({
  class: File,
  extends: 'BaseEntity',
  tableName: 'files',
  // keyset pagination newest first, over the workspace and over one folder
  indexes: [
    keysetIndex('files_workspace_id_created_at_index', 'files', 'workspace_id'),
    keysetIndex('files_folder_id_created_at_index', 'files', 'folder_id'),
  ],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'files_workspace_id_fkey',
    },
    // No cascade: a non-empty folder cannot be deleted (409), so the rows never dangle.
    folder: {
      kind: 'm:1',
      entity: () => Folder,
      nullable: true,
      deleteRule: 'no action',
      foreignKeyName: 'files_folder_id_fkey',
    },
    filename: { type: 'string' },
    mime: { type: 'string' },
    size: { type: new BigIntType('number') },
    sha256: { type: 'string', length: 64 },
    storageKey: { type: 'string', hidden: true },
  },
});
