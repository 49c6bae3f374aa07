import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { DataSource } from './DataSource';

export interface SheetColumn {
  name: string;
  type: 'number' | 'boolean' | 'text';
  nullable: boolean;
}

/**
 * One sheet of a file data source: a CSV file, or one worksheet of an XLSX file, parsed at upload into
 * typed columns and rows (docs/api/data-sources.md). The name is unique within its source; uploading
 * a file again replaces its sheets.
 */
export class DataSourceSheet extends BaseEntity {
  constructor(
    public dataSourceId: string,
    public name: string,
    public filename: string,
    public columns: SheetColumn[],
    public rows: unknown[][],
  ) {
    super();
  }
}

export const DataSourceSheetSchema = new EntitySchema<DataSourceSheet, BaseEntity>({
  class: DataSourceSheet,
  extends: 'BaseEntity',
  tableName: 'data_source_sheets',
  uniques: [{ name: 'data_source_sheets_data_source_id_name_unique', properties: ['dataSourceId', 'name'] }],
  properties: {
    dataSourceId: {
      kind: 'm:1',
      entity: () => DataSource,
      mapToPk: true,
      fieldName: 'data_source_id',
      foreignKeyName: 'data_source_sheets_data_source_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    name: { type: 'string' },
    filename: { type: 'string' },
    columns: { type: 'json' },
    // loaded only to read: a sheet may hold a 25 MiB file's worth of cells
    rows: { type: 'json', lazy: true },
  },
});
