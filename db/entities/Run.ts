import { BigIntType, EntitySchema } from '@mikro-orm/core';
import type { PendingAction, RunError, RunStatus } from '../../workflows/messages';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { Workspace } from './Workspace';

/**
 * The read model of a run (docs/api/runs.md). The workflow `run-<id>` is the source of truth for
 * transitions; its activities write this row. Plain id columns instead of relations keep the hot
 * paths (create, get, list) to single-table statements.
 */
export class Run extends BaseEntity {
  status: RunStatus = 'queued';
  output: unknown = null;
  error: RunError | null = null;
  pendingAction: PendingAction | null = null;
  inputTokens = 0;
  outputTokens = 0;
  costMicros = 0;
  /** The credits the run holds until it ends (docs/api/billing.md#holds); 0 once settled. */
  heldMicros = 0;
  startedAt: Date | null = null;
  completedAt: Date | null = null;
  apiKeyId: string | null = null;
  userId: string | null = null;
  idempotencyKey: string | null = null;
  requestHash: string | null = null;
  /** 'temporal' for runs executed here, 'local' for runs a local runner reported (POST /v1/local-runs). */
  origin: 'temporal' | 'local' = 'temporal';
  /** The pending action an API request has already answered: a second answer to it is refused (409). */
  answeredActionId: string | null = null;

  constructor(
    public workspaceId: string,
    public agentId: string,
    public agentVersion: number,
    public input: Record<string, unknown>,
    public metadata: Record<string, unknown>,
  ) {
    super();
  }
}

export const RunSchema = new EntitySchema<Run, BaseEntity>({
  class: Run,
  extends: 'BaseEntity',
  tableName: 'runs',
  indexes: [
    // Keyset pagination newest first, unfiltered and by the two filters of GET /v1/runs.
    keysetIndex('runs_workspace_created_index', 'runs', 'workspace_id'),
    keysetIndex('runs_workspace_status_created_index', 'runs', 'workspace_id', 'status'),
    keysetIndex('runs_workspace_agent_created_index', 'runs', 'workspace_id', 'agent_id'),
    // One run per Idempotency-Key within a workspace.
    {
      name: 'runs_workspace_idempotency_key_unique',
      expression:
        'create unique index "runs_workspace_idempotency_key_unique" on "runs" ("workspace_id", "idempotency_key") where "idempotency_key" is not null',
    },
    // The unverified-account limit counts a user's runs.
    {
      name: 'runs_user_id_index',
      expression: 'create index "runs_user_id_index" on "runs" ("user_id") where "user_id" is not null',
    },
    // A key's spend counts the holds of its unfinished runs.
    {
      name: 'runs_api_key_id_held_index',
      expression: 'create index "runs_api_key_id_held_index" on "runs" ("api_key_id") where "held_micros" > 0',
    },
    // The sweep of runs left queued.
    {
      name: 'runs_queued_created_index',
      expression: `create index "runs_queued_created_index" on "runs" ("created_at") where "status" = 'queued'`,
    },
  ],
  properties: {
    workspaceId: {
      kind: 'm:1',
      entity: () => Workspace,
      mapToPk: true,
      fieldName: 'workspace_id',
      foreignKeyName: 'runs_workspace_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    agentId: { type: 'uuid' },
    agentVersion: { type: 'integer' },
    // the class starts every run `queued`; the column itself has no default
    status: { type: 'string', length: 32, default: null },
    input: { type: 'json' },
    output: { type: 'json', nullable: true },
    error: { type: 'json', nullable: true },
    pendingAction: { type: 'json', nullable: true },
    metadata: { type: 'json' },
    inputTokens: { type: 'integer' },
    outputTokens: { type: 'integer' },
    costMicros: { type: new BigIntType('number') },
    heldMicros: { type: new BigIntType('number') },
    startedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    completedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    apiKeyId: { type: 'uuid', nullable: true },
    userId: { type: 'uuid', nullable: true },
    idempotencyKey: { type: 'string', nullable: true },
    requestHash: { type: 'string', length: 64, nullable: true },
    origin: { type: 'string', length: 16 },
    answeredActionId: { type: 'string', length: 64, nullable: true },
  },
});
