import { BigIntType, EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { Workspace } from './Workspace';

export type LedgerKind = 'grant' | 'charge' | 'adjustment';

/**
 * One movement of a workspace's credit balance (each grant, charge and adjustment is one row; docs/api/billing.md).
 * Charges are negative. `apiKeyId` ties a charge to the key that created the run, for spend caps.
 */
export class LedgerEntry extends BaseEntity {
  apiKeyId: string | null = null;
  runId: string | null = null;

  constructor(
    public workspace: Workspace,
    public kind: LedgerKind,
    public amountMicros: number,
    public description: string,
  ) {
    super();
  }
}

export const LedgerEntrySchema = new EntitySchema<LedgerEntry, BaseEntity>({
  class: LedgerEntry,
  extends: 'BaseEntity',
  tableName: 'ledger_entries',
  indexes: [{ properties: ['apiKeyId', 'createdAt'] }, { properties: ['workspace', 'createdAt'] }],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'ledger_entries_workspace_id_fkey',
    },
    kind: { type: 'string' },
    amountMicros: { type: new BigIntType('number') },
    description: { type: 'string' },
    apiKeyId: { type: 'uuid', nullable: true },
    runId: { type: 'uuid', nullable: true, unique: true },
  },
});
