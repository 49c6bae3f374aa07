import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { Run } from './Run';

/**
 * Who answered one of a run's gates (docs/api/runs.md#report): the session's user or the API key, kept by
 * the action id the answer claimed; `createdAt` is when. The answer itself is in the gate's step. The user
 * and key ids are history, not references: the report names them while they exist.
 */
export class RunGateAnswer extends BaseEntity {
  constructor(
    public runId: string,
    public actionId: string,
    public actor: 'session' | 'api_key',
    public userId: string | null,
    public keyId: string | null,
  ) {
    super();
  }
}

export const RunGateAnswerSchema = new EntitySchema<RunGateAnswer, BaseEntity>({
  class: RunGateAnswer,
  extends: 'BaseEntity',
  tableName: 'run_gate_answers',
  uniques: [{ name: 'run_gate_answers_run_id_action_id_unique', properties: ['runId', 'actionId'] }],
  properties: {
    runId: {
      kind: 'm:1',
      entity: () => Run,
      mapToPk: true,
      fieldName: 'run_id',
      foreignKeyName: 'run_gate_answers_run_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'no action',
    },
    actionId: { type: 'string', length: 64 },
    actor: { type: 'string', length: 16 },
    userId: { type: 'uuid', nullable: true },
    keyId: { type: 'uuid', nullable: true },
  },
});
