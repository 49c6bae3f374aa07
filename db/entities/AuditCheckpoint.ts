import { EntitySchema } from '@mikro-orm/core';

/**
 * One cut of a workspace's audit chain (docs/api/audit.md#retention): the entries at positions 1 through
 * `throughSeq` were removed, and the last of them hashed to `throughHash`, so the chain still verifies from
 * the entry after it. Written only by the prune, in the transaction that removes the entries; a trigger
 * refuses UPDATE and DELETE (Migration20261207123500).
 */
export class AuditCheckpoint {
  constructor(
    public id: string,
    public workspaceId: string,
    public throughSeq: number,
    public throughHash: string,
    /** How many entries this cut removed. */
    public removed: number,
    /** The `--before` instant the operator asked for. */
    public cutBefore: Date,
    public createdAt: Date,
  ) {}
}

export const AuditCheckpointSchema = new EntitySchema<AuditCheckpoint>({
  class: AuditCheckpoint,
  tableName: 'audit_checkpoints',
  uniques: [{ name: 'audit_checkpoints_workspace_seq_unique', properties: ['workspaceId', 'throughSeq'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    workspaceId: { type: 'uuid' },
    throughSeq: { type: 'integer' },
    throughHash: { type: 'text' },
    removed: { type: 'integer' },
    cutBefore: { type: 'Date', columnType: 'timestamptz(3)' },
    createdAt: { type: 'Date', columnType: 'timestamptz(3)' },
  },
});
