/** Shapes of data sources and saved tables (the service's docs/api/data-sources.md). */

export type DataSourceType = 'postgres' | 'mysql' | 'file';

/** Connection settings as returned: never the password. `{}` for a file source. */
export interface DataSourceConfig {
  host?: string;
  port?: number;
  database?: string;
  user?: string;
  ssl?: boolean;
}

export interface DataSource {
  id: string;
  name: string;
  type: DataSourceType;
  status: 'ok' | 'error' | 'untested';
  config: DataSourceConfig;
  createdAt: string;
  updatedAt: string;
}

/** Connection settings as sent: the password is stored encrypted and never returned. */
export interface DatabaseConfigParams {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
  ssl?: boolean;
}

export type DataSourceCreateParams =
  { name: string; type: 'postgres' | 'mysql'; config: DatabaseConfigParams } | { name: string; type: 'file' };

export interface DataSourceUpdateParams {
  name?: string;
  config?: Partial<DatabaseConfigParams>;
}

export interface DataSourceTestResult {
  ok: boolean;
  latencyMs: number;
  /** The driver's message, without secrets. */
  error?: string;
}

export interface SourceObject {
  name: string;
  kind: 'table' | 'view' | 'sheet';
}

export interface SourceColumn {
  name: string;
  type: string;
  nullable: boolean;
}

export interface SourceObjectDetail {
  name: string;
  columns: SourceColumn[];
}

export type ReadOperator = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'in' | 'is_null';
type Scalar = string | number | boolean;

/** A structured read: identifiers are checked against the source's schema, values sent as parameters. */
export interface ReadParams {
  object: string;
  columns?: string[];
  where?: Array<{ column: string; op: ReadOperator; value?: Scalar | Scalar[] }>;
  orderBy?: Array<{ column: string; desc?: boolean }>;
  /** At most 1000 (default 100). */
  limit?: number;
}

export interface ReadResult {
  columns: string[];
  rows: Array<Record<string, unknown>>;
  truncated: boolean;
}

export interface UploadedSheets {
  objects: Array<{ name: string; kind: 'sheet'; rows: number }>;
}

export interface SavedTable {
  id: string;
  name: string;
  dataSourceId: string;
  read: Record<string, unknown>;
  refresh: { cron: string | null };
  rowCount: number;
  columns: string[];
  refreshedAt: string | null;
  status: 'pending' | 'ok' | 'error';
  /** The last refresh's error; the rows are then those of the last good refresh. */
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SavedTableCreateParams {
  name: string;
  dataSourceId: string;
  read: ReadParams;
  /** A five-field cron expression: the refresh becomes a schedule. */
  refresh?: { cron?: string | null };
}

export interface SavedTableRows {
  rows: Array<Record<string, unknown>>;
  nextCursor: string | null;
}
