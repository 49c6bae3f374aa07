import { BigIntType, EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { FinanceCategory } from './FinanceCategory';
import { FinanceImport } from './FinanceImport';
import { keysetIndex } from './keysetIndex';
import { Workspace } from './Workspace';

/**
 * A bank transaction (docs/api/finance.md). The amount is exact: signed integer micro-units of `currency`.
 * `fingerprint` (unique in the workspace) is what keeps overlapping exports from importing a row twice.
 * `categoryManual` marks a category a person chose, which rules never overwrite.
 */
export class FinanceTransaction extends BaseEntity {
  category: FinanceCategory | null = null;
  categoryManual = false;
  counterparty: string | null = null;
  note: string | null = null;
  bankId: string | null = null;
  reconciled = false;
  reconciledFileId: string | null = null;

  constructor(
    public workspace: Workspace,
    public financeImport: FinanceImport,
    public account: string,
    public date: string,
    public description: string,
    public amountMicros: number,
    public currency: string,
    public fingerprint: string,
  ) {
    super();
  }
}

export const FinanceTransactionSchema = new EntitySchema<FinanceTransaction, BaseEntity>({
  class: FinanceTransaction,
  extends: 'BaseEntity',
  tableName: 'finance_transactions',
  uniques: [{ properties: ['workspace', 'fingerprint'] }],
  indexes: [
    keysetIndex('finance_transactions_workspace_id_created_at_index', 'finance_transactions', 'workspace_id'),
    { properties: ['workspace', 'date'] },
  ],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'finance_transactions_workspace_id_fkey',
    },
    financeImport: {
      kind: 'm:1',
      entity: () => FinanceImport,
      fieldName: 'import_id',
      deleteRule: 'cascade',
      foreignKeyName: 'finance_transactions_import_id_fkey',
      index: true,
    },
    category: {
      kind: 'm:1',
      entity: () => FinanceCategory,
      nullable: true,
      deleteRule: 'set null',
      foreignKeyName: 'finance_transactions_category_id_fkey',
      index: true,
    },
    categoryManual: { type: 'boolean', default: false },
    account: { type: 'string', length: 200 },
    date: { type: 'string', columnType: 'date' },
    description: { type: 'string', length: 1000 },
    amountMicros: { type: new BigIntType('number') },
    currency: { type: 'string', length: 3 },
    counterparty: { type: 'string', length: 200, nullable: true },
    note: { type: 'text', nullable: true },
    bankId: { type: 'string', length: 255, nullable: true },
    fingerprint: { type: 'string', length: 64 },
    reconciled: { type: 'boolean', default: false },
    reconciledFileId: { type: 'uuid', nullable: true },
  },
});
