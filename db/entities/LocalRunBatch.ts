import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { Workspace } from './Workspace';

/**
 * One `POST /v1/local-runs` report (docs/api/runs.md#local-runs): the runs a local runner recorded together,
 * in the order it reported them. Written in the transaction that records the runs, so a batch and its runs
 * stand or fall together.
 */
export class LocalRunBatch extends BaseEntity {
  constructor(
    public workspaceId: string,
    public agentId: string,
    public runIds: string[],
  ) {
    super();
  }
}

export const LocalRunBatchSchema = new EntitySchema<LocalRunBatch, BaseEntity>({
  class: LocalRunBatch,
  extends: 'BaseEntity',
  tableName: 'local_run_batches',
  indexes: [keysetIndex('local_run_batches_workspace_created_index', 'local_run_batches', 'workspace_id')],
  properties: {
    workspaceId: {
      kind: 'm:1',
      entity: () => Workspace,
      mapToPk: true,
      fieldName: 'workspace_id',
      foreignKeyName: 'local_run_batches_workspace_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    // like a run's: the batch outlives its agent's deletion
    agentId: { type: 'uuid' },
    runIds: { type: 'json' },
  },
});
