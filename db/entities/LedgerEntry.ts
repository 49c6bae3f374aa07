import { BigIntType, EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { Workspace } from './Workspace';

export type LedgerKind = 'grant' | 'charge' | 'adjustment' | 'hold' | 'release';

/**
 * One movement of a workspace's credit balance (each grant, adjustment, hold, release and charge is one
 * row; docs/api/billing.md#the-ledger), so the balance is the sum of its rows. Holds and charges are
 * negative, releases positive. `runId` ties holds, the release and the charge to their run, `apiKeyId`
 * to the key that created it.
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
  indexes: [
    { properties: ['apiKeyId', 'createdAt'] },
    { properties: ['workspace', 'createdAt'] },
    { properties: ['runId'] },
    // A run is settled once: one charge and at most one release.
    {
      name: 'ledger_entries_run_settlement_unique',
      expression: `create unique index "ledger_entries_run_settlement_unique" on "ledger_entries" ("run_id", "kind") where "kind" in ('charge', 'release')`,
    },
  ],
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
    runId: { type: 'uuid', nullable: true },
  },
});
