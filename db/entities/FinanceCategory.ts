import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { Workspace } from './Workspace';

export const CATEGORY_KINDS = ['income', 'expense', 'transfer'] as const;
export type CategoryKind = (typeof CATEGORY_KINDS)[number];

/** A finance category of a workspace: the default chart or one of its own (docs/api/finance.md). */
export class FinanceCategory extends BaseEntity {
  constructor(
    public workspace: Workspace,
    public name: string,
    public kind: CategoryKind,
    public isDefault = false,
  ) {
    super();
  }
}

export const FinanceCategorySchema = new EntitySchema<FinanceCategory, BaseEntity>({
  class: FinanceCategory,
  extends: 'BaseEntity',
  tableName: 'finance_categories',
  uniques: [{ properties: ['workspace', 'name'] }],
  indexes: [keysetIndex('finance_categories_workspace_id_created_at_index', 'finance_categories', 'workspace_id')],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'finance_categories_workspace_id_fkey',
    },
    name: { type: 'string', length: 100 },
    kind: { type: 'string', length: 16 },
    isDefault: { type: 'boolean', default: false },
  },
});
