import { BigIntType, EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { FinanceCategory } from './FinanceCategory';
import { keysetIndex } from './keysetIndex';
import { Workspace } from './Workspace';

/**
 * A categorisation rule (docs/api/finance.md): every condition it has must hold; the matching rule of the
 * highest priority sets the category. Amount bounds are signed micro-units of the transaction's currency.
 */
export class FinanceRule extends BaseEntity {
  descriptionContains: string | null = null;
  descriptionRegex: string | null = null;
  amountMinMicros: number | null = null;
  amountMaxMicros: number | null = null;

  constructor(
    public workspace: Workspace,
    public category: FinanceCategory,
    public priority: number,
  ) {
    super();
  }
}

export const FinanceRuleSchema = new EntitySchema<FinanceRule, BaseEntity>({
  class: FinanceRule,
  extends: 'BaseEntity',
  tableName: 'finance_rules',
  indexes: [keysetIndex('finance_rules_workspace_id_created_at_index', 'finance_rules', 'workspace_id')],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'finance_rules_workspace_id_fkey',
    },
    category: {
      kind: 'm:1',
      entity: () => FinanceCategory,
      deleteRule: 'cascade',
      foreignKeyName: 'finance_rules_category_id_fkey',
      index: true,
    },
    priority: { type: 'integer' },
    descriptionContains: { type: 'string', length: 200, nullable: true },
    descriptionRegex: { type: 'string', length: 500, nullable: true },
    amountMinMicros: { type: new BigIntType('number'), nullable: true },
    amountMaxMicros: { type: new BigIntType('number'), nullable: true },
  },
});
