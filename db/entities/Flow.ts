import { EntitySchema } from '@mikro-orm/core';
import type { FlowStep, FlowTrigger } from '../../workflows/flowMessages';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { Project } from './Project';
import { Workspace } from './Workspace';

export type FlowStatus = 'active' | 'paused';

/** A flow: a trigger and steps that run in order (docs/api/flows.md). */
export class Flow extends BaseEntity {
  status: FlowStatus = 'active';
  /** SHA-256 of the webhook token; the token itself is shown once (POST /v1/flows/{id}/webhook-token). */
  webhookTokenHash: string | null = null;
  /** Deleting the project sets this to null (docs/api/projects.md). */
  projectId: string | null = null;
  /**
   * Who created or last changed the flow (a key or a user): its webhook and schedule runs are made on their behalf
   * (docs/api/billing.md#who-pays).
   */
  apiKeyId: string | null = null;
  userId: string | null = null;

  constructor(
    public workspaceId: string,
    public name: string,
    public description: string | null,
    public trigger: FlowTrigger,
    public steps: FlowStep[],
  ) {
    super();
  }
}

export const FlowSchema = new EntitySchema<Flow, BaseEntity>({
  class: Flow,
  extends: 'BaseEntity',
  tableName: 'flows',
  indexes: [
    // keyset pagination newest first, unfiltered and by project
    keysetIndex('flows_workspace_id_created_at_index', 'flows', 'workspace_id'),
    keysetIndex('flows_project_id_created_at_index', 'flows', 'project_id'),
  ],
  properties: {
    workspaceId: {
      kind: 'm:1',
      entity: () => Workspace,
      mapToPk: true,
      fieldName: 'workspace_id',
      foreignKeyName: 'flows_workspace_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    projectId: {
      kind: 'm:1',
      entity: () => Project,
      mapToPk: true,
      nullable: true,
      fieldName: 'project_id',
      foreignKeyName: 'flows_project_id_fkey',
      deleteRule: 'set null',
      updateRule: 'cascade',
    },
    name: { type: 'string' },
    description: { type: 'text', nullable: true },
    // the class starts every flow `active`; the column itself has no default
    status: { type: 'string', length: 16, default: null },
    trigger: { type: 'json' },
    steps: { type: 'json' },
    webhookTokenHash: { type: 'string', length: 64, nullable: true, unique: true },
    apiKeyId: { type: 'uuid', nullable: true },
    userId: { type: 'uuid', nullable: true },
  },
});
