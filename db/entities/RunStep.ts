import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { Run } from './Run';

import type { StepStatus, StepType } from '../../workflows/agentTurn';

export type { StepStatus, StepType };

/** One step of a run (a model turn, a tool call, a human gate), `GET /v1/runs/{id}/steps`. */
export class RunStep extends BaseEntity {
  completedAt: Date | null = null;

  constructor(
    public runId: string,
    public index: number,
    public type: StepType,
    public status: StepStatus,
    public detail: Record<string, unknown>,
    public startedAt: Date,
  ) {
    super();
  }
}

export const RunStepSchema = new EntitySchema<RunStep, BaseEntity>({
  class: RunStep,
  extends: 'BaseEntity',
  tableName: 'run_steps',
  uniques: [{ properties: ['runId', 'index'] }],
  properties: {
    runId: {
      kind: 'm:1',
      entity: () => Run,
      mapToPk: true,
      fieldName: 'run_id',
      foreignKeyName: 'run_steps_run_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'no action',
    },
    index: { type: 'integer' },
    type: { type: 'string', length: 32 },
    status: { type: 'string', length: 32 },
    detail: { type: 'json' },
    startedAt: { type: 'Date', columnType: 'timestamptz' },
    completedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
