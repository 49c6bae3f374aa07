import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { Workspace } from './Workspace';

export interface ImportLineError {
  line: number;
  message: string;
}

/**
 * One import of a bank export from the file library (docs/api/finance.md). The file id is kept without a
 * foreign key: deleting the file later leaves the record of what was imported.
 */
export class FinanceImport extends BaseEntity {
  status = 'completed';

  constructor(
    public workspace: Workspace,
    public fileId: string,
    public format: 'csv' | 'ofx',
    public account: string,
    public rows: number,
    public imported: number,
    public duplicates: number,
    public errors: ImportLineError[],
  ) {
    super();
  }
}

export const FinanceImportSchema = new EntitySchema<FinanceImport, BaseEntity>({
  class: FinanceImport,
  extends: 'BaseEntity',
  tableName: 'finance_imports',
  indexes: [keysetIndex('finance_imports_workspace_id_created_at_index', 'finance_imports', 'workspace_id')],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'finance_imports_workspace_id_fkey',
    },
    fileId: { type: 'uuid' },
    format: { type: 'string', length: 8 },
    account: { type: 'string', length: 200 },
    status: { type: 'string', length: 16 },
    rows: { type: 'integer' },
    imported: { type: 'integer' },
    duplicates: { type: 'integer' },
    errors: { type: 'jsonb' },
  },
});
