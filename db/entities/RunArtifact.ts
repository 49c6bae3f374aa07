import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { File } from './File';
import { keysetIndex } from './keysetIndex';
import { Run } from './Run';

/**
 * A file a run produced (docs/api/runs.md#artifacts): written with the file's row, in its transaction, by the
 * one function that stores a run's files (domain/files/runFiles.ts). `step` is the index of the step that
 * wrote it. Deleting the file deletes this row, so the run's list never names a file that is gone.
 */
export class RunArtifact extends BaseEntity {
  constructor(
    public runId: string,
    public fileId: string,
    public step: number | null,
  ) {
    super();
  }
}

export const RunArtifactSchema = new EntitySchema<RunArtifact, BaseEntity>({
  class: RunArtifact,
  extends: 'BaseEntity',
  tableName: 'run_artifacts',
  indexes: [keysetIndex('run_artifacts_run_id_created_at_index', 'run_artifacts', 'run_id')],
  properties: {
    runId: {
      kind: 'm:1',
      entity: () => Run,
      mapToPk: true,
      fieldName: 'run_id',
      foreignKeyName: 'run_artifacts_run_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'no action',
    },
    fileId: {
      kind: 'm:1',
      entity: () => File,
      mapToPk: true,
      fieldName: 'file_id',
      unique: 'run_artifacts_file_id_unique',
      foreignKeyName: 'run_artifacts_file_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'no action',
    },
    step: { type: 'integer', nullable: true },
  },
});
