import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { Workspace } from './Workspace';

export interface ProposedMatch {
  transactionId: string;
  fileId: string;
  /** Exact decimal text in `currency`. */
  amount: string;
  currency: string;
  date: string;
  reason: string;
}

/**
 * What a finance run (reconciliation or report, docs/api/finance.md) was asked to do, keyed by its run id.
 * The finance tools work only for runs that have this row, so an agent of any other run cannot read the
 * workspace's finances; `proposals` are the matches the run proposed, the only ones approval can reconcile.
 */
export class FinanceRun extends BaseEntity {
  proposals: ProposedMatch[] = [];

  constructor(
    public workspace: Workspace,
    public runId: string,
    public kind: 'reconciliation' | 'report',
    public params: Record<string, unknown>,
  ) {
    super();
  }
}

export const FinanceRunSchema = new EntitySchema<FinanceRun, BaseEntity>({
  class: FinanceRun,
  extends: 'BaseEntity',
  tableName: 'finance_runs',
  indexes: [keysetIndex('finance_runs_workspace_id_created_at_index', 'finance_runs', 'workspace_id')],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'finance_runs_workspace_id_fkey',
    },
    runId: { type: 'uuid', unique: true },
    kind: { type: 'string', length: 16 },
    params: { type: 'jsonb' },
    proposals: { type: 'jsonb' },
  },
});
