import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { Run } from './Run';

/** A person's rating of a run (`POST /v1/runs/{id}/feedback`, scope `feedback:write`). */
export class Feedback extends BaseEntity {
  constructor(
    public runId: string,
    public workspaceId: string,
    public rating: number,
    public correctedOutput: unknown,
    public comment: string | null,
  ) {
    super();
  }
}

export const FeedbackSchema = new EntitySchema<Feedback, BaseEntity>({
  class: Feedback,
  extends: 'BaseEntity',
  tableName: 'feedback',
  properties: {
    runId: {
      kind: 'm:1',
      entity: () => Run,
      mapToPk: true,
      fieldName: 'run_id',
      foreignKeyName: 'feedback_run_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'no action',
      index: true,
    },
    workspaceId: { type: 'uuid' },
    rating: { type: 'integer' },
    correctedOutput: { type: 'json', nullable: true },
    comment: { type: 'text', nullable: true },
  },
});
