import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { FlowRun } from './FlowRun';

/**
 * One person's answer at a flow's approval step under a policy (docs/api/flows.md#approval-policies), the
 * flow-run twin of `GateAnswer`: the workflow counts the answers; this row is the API's claim that the person
 * answered (one per person and step, so a second answer is `already_answered_by_you`), written with the
 * signal's outbox row.
 */
export class FlowGateAnswer extends BaseEntity {
  constructor(
    public flowRunId: string,
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

export const FlowGateAnswerSchema = new EntitySchema<FlowGateAnswer, BaseEntity>({
  class: FlowGateAnswer,
  extends: 'BaseEntity',
  tableName: 'flow_gate_answers',
  uniques: [
    { name: 'flow_gate_answers_run_action_approver_unique', properties: ['flowRunId', 'actionId', 'approver'] },
  ],
  properties: {
    flowRunId: {
      kind: 'm:1',
      entity: () => FlowRun,
      mapToPk: true,
      fieldName: 'flow_run_id',
      foreignKeyName: 'flow_gate_answers_flow_run_id_fkey',
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
