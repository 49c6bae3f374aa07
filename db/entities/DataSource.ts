import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { Workspace } from './Workspace';
import { keysetIndex } from './keysetIndex';

export const DATA_SOURCE_TYPES = ['postgres', 'mysql', 'file'] as const;
export type DataSourceType = (typeof DATA_SOURCE_TYPES)[number];
export type DataSourceStatus = 'ok' | 'error' | 'untested';

/** Connection settings of a database source; the password is not here but sealed in `secret`. */
export interface DatabaseConfig {
  host: string;
  port: number;
  database: string;
  user: string;
  ssl?: boolean;
}

/**
 * A data source (docs/api/data-sources.md): a database the service reads from, read-only, or a set of
 * uploaded CSV/XLSX sheets. `secret` is the password sealed by platform/secrets.ts; it never leaves the
 * domain layer unsealed except towards the database driver.
 */
export class DataSource extends BaseEntity {
  status: DataSourceStatus = 'untested';
  secret: string | null = null;

  constructor(
    public workspaceId: string,
    public name: string,
    public type: DataSourceType,
    public config: DatabaseConfig | Record<string, never>,
  ) {
    super();
  }
}

export const DataSourceSchema = new EntitySchema<DataSource, BaseEntity>({
  class: DataSource,
  extends: 'BaseEntity',
  tableName: 'data_sources',
  indexes: [keysetIndex('data_sources_workspace_id_created_at_index', 'data_sources', 'workspace_id')],
  properties: {
    workspaceId: {
      kind: 'm:1',
      entity: () => Workspace,
      mapToPk: true,
      fieldName: 'workspace_id',
      foreignKeyName: 'data_sources_workspace_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    name: { type: 'string' },
    type: { type: 'string', length: 16 },
    status: { type: 'string', length: 16 },
    config: { type: 'json' },
    secret: { type: 'text', nullable: true },
  },
});
