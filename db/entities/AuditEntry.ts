import { EntitySchema } from '@mikro-orm/core';

/**
 * One entry of a workspace's audit log (docs/api/audit.md): who changed what, from where, chained to the
 * entry before it by `prevHash` so a changed, removed or inserted row breaks the chain. The service only
 * ever inserts; a trigger refuses UPDATE and DELETE (Migration20261207103000), but for retention's cut of a
 * prefix (Migration20261207123500). No foreign key to the
 * workspace: the log is evidence and outlives what it describes.
 */
export class AuditEntry {
  constructor(
    public id: string,
    public workspaceId: string,
    /** 1, 2, 3 … within the workspace: the entry's place in the chain. */
    public seq: number,
    public at: Date,
    public action: string,
    public resourceType: string,
    public resourceId: string,
    public actorType: 'user' | 'api_key' | 'system',
    public actorUserId: string | null,
    public actorKeyId: string | null,
    public ip: string | null,
    public userAgent: string | null,
    public requestId: string | null,
    public details: Record<string, unknown>,
    public prevHash: string,
    public hash: string,
  ) {}
}

export const AuditEntrySchema = new EntitySchema<AuditEntry>({
  class: AuditEntry,
  tableName: 'audit_entries',
  uniques: [{ name: 'audit_entries_workspace_seq_unique', properties: ['workspaceId', 'seq'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    workspaceId: { type: 'uuid' },
    seq: { type: 'integer' },
    at: { type: 'Date', columnType: 'timestamptz(3)' },
    action: { type: 'text' },
    resourceType: { type: 'text' },
    resourceId: { type: 'text' },
    actorType: { type: 'text' },
    actorUserId: { type: 'uuid', nullable: true },
    actorKeyId: { type: 'uuid', nullable: true },
    ip: { type: 'text', nullable: true },
    userAgent: { type: 'text', nullable: true },
    requestId: { type: 'text', nullable: true },
    details: { type: 'json' },
    prevHash: { type: 'text' },
    hash: { type: 'text' },
  },
});
