import { EntitySchema } from '@mikro-orm/core';
import type {
  FlowError,
  FlowRunStatus,
  FlowRunStepState,
  FlowRunTrigger,
  FlowStep,
} from '../../workflows/flowMessages';
import type { PolicyProgress } from '../../workflows/messages';
import { BaseEntity } from './BaseEntity';
import { Flow } from './Flow';
import { keysetIndex } from './keysetIndex';
import { Workspace } from './Workspace';

/**
 * The approval a flow run waits for: the action id its answer must carry, and the rendered message; under
 * an approval policy, its progress too (the policy, the approvals counted, how many remain, the expiry).
 */
export type PendingApproval = {
  id: string;
  step: string;
  message: string;
} & Partial<PolicyProgress>;

/**
 * The read model of one run of a flow (docs/api/flows.md). The workflow `flow-<id>` decides every
 * transition; its activities write this row. `definition` is the flow's steps as they were when the
 * run was made, so editing the flow never changes a run in flight.
 */
export class FlowRun extends BaseEntity {
  status: FlowRunStatus = 'queued';
  steps: FlowRunStepState[];
  error: FlowError | null = null;
  pendingApproval: PendingApproval | null = null;
  /** The approval an API request has already answered: a second answer is 409. */
  answeredActionId: string | null = null;
  completedAt: Date | null = null;
  /** The schedule tick that made the run (its workflow id), so a repeated tick makes no second run. */
  triggerKey: string | null = null;
  /**
   * On whose behalf the run's agent steps are made: the caller of a manual run, else the flow's
   * (docs/api/billing.md#who-pays).
   */
  apiKeyId: string | null = null;
  userId: string | null = null;

  constructor(
    public workspaceId: string,
    public flowId: string,
    public trigger: FlowRunTrigger,
    public definition: FlowStep[],
  ) {
    super();
    this.steps = definition.map((s) => ({ name: s.name, type: s.type, status: 'pending', output: null, error: null }));
  }
}

export const FlowRunSchema = new EntitySchema<FlowRun, BaseEntity>({
  class: FlowRun,
  extends: 'BaseEntity',
  tableName: 'flow_runs',
  // keyset pagination newest first within a flow
  indexes: [keysetIndex('flow_runs_flow_id_created_at_index', 'flow_runs', 'flow_id')],
  properties: {
    workspaceId: {
      kind: 'm:1',
      entity: () => Workspace,
      mapToPk: true,
      fieldName: 'workspace_id',
      foreignKeyName: 'flow_runs_workspace_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
      index: true,
    },
    flowId: {
      kind: 'm:1',
      entity: () => Flow,
      mapToPk: true,
      fieldName: 'flow_id',
      foreignKeyName: 'flow_runs_flow_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    // the class starts every flow run `queued`; the column itself has no default
    status: { type: 'string', length: 32, default: null },
    trigger: { type: 'json' },
    definition: { type: 'json' },
    steps: { type: 'json' },
    error: { type: 'json', nullable: true },
    pendingApproval: { type: 'json', nullable: true },
    answeredActionId: { type: 'string', length: 64, nullable: true },
    completedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    triggerKey: { type: 'string', nullable: true, unique: true },
    apiKeyId: { type: 'uuid', nullable: true },
    userId: { type: 'uuid', nullable: true },
  },
});
