import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { Run } from './Run';

/**
 * One person's answer at an approval gate under a policy (docs/api/runs.md#approval-policies). The
 * workflow counts the answers; this row is the API's claim that the person answered (one per person and
 * gate, so a second answer is `already_answered_by_you`), written with the signal's outbox row.
 */
export class GateAnswer extends BaseEntity {
  constructor(
    public runId: string,
    public actionId: string,
    /** The person the answer counts as: `user:<id>`, or `key:<id>` for a key no user is known to have made. */
    public approver: string,
    public userId: string | null,
    public apiKeyId: string | null,
    public approved: boolean,
    public comment: string | null,
  ) {
    super();
  }
}

export const GateAnswerSchema = new EntitySchema<GateAnswer, BaseEntity>({
  class: GateAnswer,
  extends: 'BaseEntity',
  tableName: 'gate_answers',
  uniques: [{ name: 'gate_answers_run_action_approver_unique', properties: ['runId', 'actionId', 'approver'] }],
  properties: {
    runId: {
      kind: 'm:1',
      entity: () => Run,
      mapToPk: true,
      fieldName: 'run_id',
      foreignKeyName: 'gate_answers_run_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    actionId: { type: 'string', length: 64 },
    approver: { type: 'string', length: 80 },
    userId: { type: 'uuid', nullable: true },
    apiKeyId: { type: 'uuid', nullable: true },
    approved: { type: 'boolean' },
    comment: { type: 'text', nullable: true },
  },
});
