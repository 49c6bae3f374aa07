import { ArrayType, EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { Project } from './Project';
import { Workspace } from './Workspace';

import type { AgentSettings } from '../../workflows/agentTurn';

export type { AgentSettings };

/** An agent; its definition lives in immutable numbered versions (docs/api/agents.md). */
export class Agent extends BaseEntity {
  deletedAt: Date | null = null;
  /** Deleting the project sets this to null (docs/api/projects.md). */
  project: Project | null = null;
  /** Saved tables the agent may read with `saved_table_rows` (docs/api/data-sources.md). */
  savedTableIds: string[] = [];

  constructor(
    public workspace: Workspace,
    public name: string,
    public presetId: string,
    public currentVersion: number,
  ) {
    super();
  }
}

export const AgentSchema = new EntitySchema<Agent, BaseEntity>({
  class: Agent,
  extends: 'BaseEntity',
  tableName: 'agents',
  // keyset pagination newest first
  indexes: [
    keysetIndex('agents_workspace_id_created_at_index', 'agents', 'workspace_id'),
    keysetIndex('agents_project_id_created_at_index', 'agents', 'project_id'),
  ],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'agents_workspace_id_fkey',
    },
    name: { type: 'string' },
    presetId: { type: 'string' },
    currentVersion: { type: 'integer' },
    deletedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    project: {
      kind: 'm:1',
      entity: () => Project,
      nullable: true,
      deleteRule: 'set null',
      foreignKeyName: 'agents_project_id_fkey',
    },
    savedTableIds: { type: ArrayType, columnType: 'text[]', default: '{}' },
  },
});

/** One immutable version of an agent's definition. */
export class AgentVersion extends BaseEntity {
  constructor(
    public agent: Agent,
    public version: number,
    public instructions: string | null,
    public modelId: string,
    public tools: string[],
    public settings: AgentSettings,
  ) {
    super();
  }
}

export const AgentVersionSchema = new EntitySchema<AgentVersion, BaseEntity>({
  class: AgentVersion,
  extends: 'BaseEntity',
  tableName: 'agent_versions',
  uniques: [{ properties: ['agent', 'version'] }],
  // keyset pagination newest first
  indexes: [keysetIndex('agent_versions_agent_id_created_at_index', 'agent_versions', 'agent_id')],
  properties: {
    agent: { kind: 'm:1', entity: () => Agent, deleteRule: 'cascade', foreignKeyName: 'agent_versions_agent_id_fkey' },
    version: { type: 'integer' },
    instructions: { type: 'text', nullable: true },
    modelId: { type: 'string' },
    tools: { type: 'json' },
    settings: { type: 'json' },
  },
});
