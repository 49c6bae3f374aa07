import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { DataSource } from './DataSource';
import { Workspace } from './Workspace';
import { keysetIndex } from './keysetIndex';

export type SavedTableStatus = 'pending' | 'ok' | 'error';

/**
 * A saved table (docs/api/data-sources.md): a structured read of a data source, materialised into
 * `saved_table_rows` by its refresh workflow (`saved-table-<id>`), by hand or on a cron schedule.
 * A failed refresh records its error and keeps the rows of the last good one.
 */
export class SavedTable extends BaseEntity {
  status: SavedTableStatus = 'pending';
  error: string | null = null;
  rowCount = 0;
  columns: string[] = [];
  refreshedAt: Date | null = null;

  constructor(
    public workspaceId: string,
    public dataSourceId: string,
    public name: string,
    public read: Record<string, unknown>,
    public cron: string | null,
  ) {
    super();
  }
}

export const SavedTableSchema = new EntitySchema<SavedTable, BaseEntity>({
  class: SavedTable,
  extends: 'BaseEntity',
  tableName: 'saved_tables',
  indexes: [keysetIndex('saved_tables_workspace_id_created_at_index', 'saved_tables', 'workspace_id')],
  properties: {
    workspaceId: {
      kind: 'm:1',
      entity: () => Workspace,
      mapToPk: true,
      fieldName: 'workspace_id',
      foreignKeyName: 'saved_tables_workspace_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    dataSourceId: {
      kind: 'm:1',
      entity: () => DataSource,
      mapToPk: true,
      fieldName: 'data_source_id',
      foreignKeyName: 'saved_tables_data_source_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
      index: true,
    },
    name: { type: 'string' },
    read: { type: 'json' },
    cron: { type: 'string', nullable: true },
    status: { type: 'string', length: 16 },
    error: { type: 'text', nullable: true },
    rowCount: { type: 'integer' },
    columns: { type: 'json' },
    refreshedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

/** One materialised row of a saved table, in the order the read returned it. */
export class SavedTableRow {
  constructor(
    public savedTableId: string,
    public position: number,
    public data: Record<string, unknown>,
  ) {}
}

export const SavedTableRowSchema = new EntitySchema<SavedTableRow>({
  class: SavedTableRow,
  tableName: 'saved_table_rows',
  properties: {
    savedTableId: {
      kind: 'm:1',
      entity: () => SavedTable,
      mapToPk: true,
      primary: true,
      fieldName: 'saved_table_id',
      foreignKeyName: 'saved_table_rows_saved_table_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    position: { type: 'integer', primary: true },
    data: { type: 'jsonb' },
  },
});
