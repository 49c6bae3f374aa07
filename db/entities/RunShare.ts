import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { Run } from './Run';
import { Workspace } from './Workspace';

/**
 * A run's shared dashboard (docs/api/runs.md#sharing-a-run): only the SHA-256 of its token is kept.
 * One per run: sharing again replaces the token.
 */
export class RunShare extends BaseEntity {
  constructor(
    public workspaceId: string,
    public runId: string,
    public tokenHash: string,
  ) {
    super();
  }
}

export const RunShareSchema = new EntitySchema<RunShare, BaseEntity>({
  class: RunShare,
  extends: 'BaseEntity',
  tableName: 'run_shares',
  uniques: [
    { name: 'run_shares_run_id_unique', properties: ['runId'] },
    { name: 'run_shares_token_hash_unique', properties: ['tokenHash'] },
  ],
  properties: {
    workspaceId: {
      kind: 'm:1',
      entity: () => Workspace,
      mapToPk: true,
      fieldName: 'workspace_id',
      foreignKeyName: 'run_shares_workspace_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    runId: {
      kind: 'm:1',
      entity: () => Run,
      mapToPk: true,
      fieldName: 'run_id',
      foreignKeyName: 'run_shares_run_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'no action',
    },
    tokenHash: { type: 'string', length: 64 },
  },
});
