import { EntitySchema } from '@mikro-orm/core';
import type { ChatMessage } from '../../workflows/agentTurn';
import { BaseEntity } from './BaseEntity';
import { Run } from './Run';

/**
 * One entry of a run's conversation with its model, at `index` (0, 1, 2 … in conversation order). The
 * run workflow passes ids and indexes only; its activities read and append these rows, so a long run's
 * Temporal history stays small (docs/api/runs.md#how-a-run-executes-operators). `(runId, index)` is
 * unique: a retried activity never appends its message twice.
 */
export class RunMessage extends BaseEntity {
  constructor(
    public runId: string,
    public index: number,
    public role: ChatMessage['role'],
    public message: ChatMessage,
  ) {
    super();
  }
}

export const RunMessageSchema = new EntitySchema<RunMessage, BaseEntity>({
  class: RunMessage,
  extends: 'BaseEntity',
  tableName: 'run_messages',
  uniques: [{ properties: ['runId', 'index'] }],
  properties: {
    runId: {
      kind: 'm:1',
      entity: () => Run,
      mapToPk: true,
      fieldName: 'run_id',
      foreignKeyName: 'run_messages_run_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'no action',
    },
    index: { type: 'integer' },
    role: { type: 'string', length: 16 },
    message: { type: 'json' },
  },
});
