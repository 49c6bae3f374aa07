import { EntitySchema } from '@mikro-orm/core';
import { Agent } from './Agent';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { Workspace } from './Workspace';

export const SCORERS = ['exact', 'contains', 'json_subset', 'judge'] as const;
export type Scorer = (typeof SCORERS)[number];

/** One case of an eval: the run input, the answers to its `ask_user` questions in order, what it must produce. */
export interface EvalCase {
  input: Record<string, unknown>;
  answers?: string[];
  expected: unknown;
  scorer: Scorer;
}

/** A named set of cases an agent's versions are scored against (docs/api/evals.md). */
export class Eval extends BaseEntity {
  constructor(
    public workspaceId: string,
    public agentId: string,
    public name: string,
    public cases: EvalCase[],
  ) {
    super();
  }
}

export const EvalSchema = new EntitySchema<Eval, BaseEntity>({
  class: Eval,
  extends: 'BaseEntity',
  tableName: 'evals',
  // keyset pagination newest first within the agent
  indexes: [keysetIndex('evals_agent_id_created_at_index', 'evals', 'agent_id')],
  properties: {
    workspaceId: {
      kind: 'm:1',
      entity: () => Workspace,
      mapToPk: true,
      fieldName: 'workspace_id',
      foreignKeyName: 'evals_workspace_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    agentId: {
      kind: 'm:1',
      entity: () => Agent,
      mapToPk: true,
      fieldName: 'agent_id',
      foreignKeyName: 'evals_agent_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    name: { type: 'string' },
    cases: { type: 'json' },
  },
});
