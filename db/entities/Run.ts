import { BigIntType, EntitySchema } from '@mikro-orm/core';
import type { PendingAction, RunError, RunStatus } from '../../workflows/messages';
import { BaseEntity } from './BaseEntity';

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
  properties: {
    workspaceId: { type: 'uuid' },
    agentId: { type: 'uuid' },
    agentVersion: { type: 'integer' },
    status: { type: 'string' },
    input: { type: 'json' },
    output: { type: 'json', nullable: true },
    error: { type: 'json', nullable: true },
    pendingAction: { type: 'json', nullable: true },
    metadata: { type: 'json' },
    inputTokens: { type: 'integer' },
    outputTokens: { type: 'integer' },
    costMicros: { type: new BigIntType('number') },
    startedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    completedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    apiKeyId: { type: 'uuid', nullable: true },
    userId: { type: 'uuid', nullable: true },
    idempotencyKey: { type: 'string', nullable: true },
    requestHash: { type: 'string', nullable: true },
    origin: { type: 'string' },
    answeredActionId: { type: 'string', nullable: true },
  },
});
