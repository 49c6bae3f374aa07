import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { Eval } from './Eval';
import { keysetIndex } from './keysetIndex';
import { Workspace } from './Workspace';

export const EVAL_RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type EvalRunStatus = (typeof EVAL_RUN_STATUSES)[number];

/**
 * One run of an eval against one agent version: the workflow `eval-<id>` (docs/api/evals.md). Who
 * started it (`apiKeyId` or `userId`) is kept, because its case runs are charged and checked as theirs.
 */
export class EvalRun extends BaseEntity {
  status: EvalRunStatus = 'queued';
  passed = 0;
  score: number | null = null;
  apiKeyId: string | null = null;
  userId: string | null = null;
  completedAt: Date | null = null;

  constructor(
    public workspaceId: string,
    public evalId: string,
    public agentId: string,
    public agentVersion: number,
    public total: number,
  ) {
    super();
  }
}

export const EvalRunSchema = new EntitySchema<EvalRun, BaseEntity>({
  class: EvalRun,
  extends: 'BaseEntity',
  tableName: 'eval_runs',
  // keyset pagination newest first within the eval
  indexes: [keysetIndex('eval_runs_eval_id_created_at_index', 'eval_runs', 'eval_id')],
  properties: {
    workspaceId: {
      kind: 'm:1',
      entity: () => Workspace,
      mapToPk: true,
      fieldName: 'workspace_id',
      foreignKeyName: 'eval_runs_workspace_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    evalId: {
      kind: 'm:1',
      entity: () => Eval,
      mapToPk: true,
      fieldName: 'eval_id',
      foreignKeyName: 'eval_runs_eval_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    agentId: { type: 'uuid' },
    agentVersion: { type: 'integer' },
    status: { type: 'string', length: 16, default: null },
    total: { type: 'integer' },
    passed: { type: 'integer', default: null },
    score: { type: 'double', nullable: true },
    apiKeyId: { type: 'uuid', nullable: true },
    userId: { type: 'uuid', nullable: true },
    completedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

/**
 * One case of an eval run. The row is inserted in the transaction that creates the case's run, and
 * (evalRunId, caseIndex) is unique, so a retried activity finds the run its first attempt made instead
 * of making (and charging) a second one. `passed` is null until the case is scored.
 */
export class EvalResult extends BaseEntity {
  runId: string | null = null;
  passed: boolean | null = null;
  score: number | null = null;
  detail: string | null = null;

  constructor(
    public evalRunId: string,
    public caseIndex: number,
  ) {
    super();
  }
}

export const EvalResultSchema = new EntitySchema<EvalResult, BaseEntity>({
  class: EvalResult,
  extends: 'BaseEntity',
  tableName: 'eval_results',
  uniques: [{ properties: ['evalRunId', 'caseIndex'] }],
  properties: {
    evalRunId: {
      kind: 'm:1',
      entity: () => EvalRun,
      mapToPk: true,
      fieldName: 'eval_run_id',
      foreignKeyName: 'eval_results_eval_run_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    caseIndex: { type: 'integer' },
    runId: { type: 'uuid', nullable: true },
    passed: { type: 'boolean', nullable: true },
    score: { type: 'double', nullable: true },
    detail: { type: 'text', nullable: true },
  },
});
