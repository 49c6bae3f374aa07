import { BigIntType, EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { Workspace } from './Workspace';

/**
 * What a workspace charges its own customers (docs/api/pricing.md). Nothing here changes what the
 * service charges the workspace.
 */
export class PriceList extends BaseEntity {
  constructor(
    public workspace: Workspace,
    public name: string,
    public isDefault = false,
  ) {
    super();
  }
}

export const PriceListSchema = new EntitySchema<PriceList, BaseEntity>({
  class: PriceList,
  extends: 'BaseEntity',
  tableName: 'price_lists',
  indexes: [
    // keyset pagination newest first
    keysetIndex('price_lists_workspace_id_created_at_index', 'price_lists', 'workspace_id'),
    // at most one default per workspace, whatever the concurrency
    {
      name: 'price_lists_one_default_unique',
      expression:
        'create unique index "price_lists_one_default_unique" on "price_lists" ("workspace_id") where "is_default"',
    },
  ],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'price_lists_workspace_id_fkey',
    },
    name: { type: 'string' },
    isDefault: { type: 'boolean', default: false },
  },
});

/**
 * One rule of a price list: what it matches (every set field must match; none set matches everything),
 * its own prices in micro-USD and a markup on the service's cost in parts per million (1 % = 10,000).
 */
export class PricingRule extends BaseEntity {
  matchAgentId: string | null = null;
  matchModelId: string | null = null;
  matchAppId: string | null = null;
  perRunMicros: number | null = null;
  inputPerMTokMicros: number | null = null;
  outputPerMTokMicros: number | null = null;
  markupPpm: number | null = null;

  constructor(
    public priceList: PriceList,
    public priority: number,
  ) {
    super();
  }
}

const micros = { type: new BigIntType('number'), nullable: true } as const;

export const PricingRuleSchema = new EntitySchema<PricingRule, BaseEntity>({
  class: PricingRule,
  extends: 'BaseEntity',
  tableName: 'pricing_rules',
  // keyset pagination newest first within the list
  indexes: [keysetIndex('pricing_rules_price_list_id_created_at_index', 'pricing_rules', 'price_list_id')],
  properties: {
    priceList: {
      kind: 'm:1',
      entity: () => PriceList,
      deleteRule: 'cascade',
      foreignKeyName: 'pricing_rules_price_list_id_fkey',
    },
    matchAgentId: { type: 'uuid', nullable: true },
    matchModelId: { type: 'string', nullable: true },
    matchAppId: { type: 'uuid', nullable: true },
    perRunMicros: micros,
    inputPerMTokMicros: micros,
    outputPerMTokMicros: micros,
    markupPpm: micros,
    priority: { type: 'integer' },
  },
});
