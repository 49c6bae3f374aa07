/**
 * Every action the audit log records (docs/api/audit.md), one list for the recorder's type, the API's
 * filter schema and the documentation.
 */
export const AUDIT_ACTIONS = [
  'run.approved',
  'run.rejected',
  'run.input_submitted',
  'run.reviewed',
  'flow_run.approved',
  'flow_run.rejected',
  'api_key.created',
  'api_key.revoked',
  'api_key.spend_cap_changed',
  'project_member.role_changed',
  'member.role_changed',
  'workspace.plan_changed',
  'webhook.created',
  'webhook.deleted',
  'output_connection.created',
  'output_connection.deleted',
  'data_source.credentials_changed',
  'app.published',
  'app.paused',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an entry is about: the kind of resource and its id. */
export const AUDIT_RESOURCE_TYPES = [
  'run',
  'flow_run',
  'api_key',
  'project',
  'workspace',
  'webhook',
  'output_connection',
  'data_source',
  'app',
] as const;

export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];
