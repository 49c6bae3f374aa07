import type { DatabaseConfig, DataSource, DataSourceStatus, DataSourceType } from '../../db/entities/DataSource';

export interface DataSourceView {
  id: string;
  name: string;
  type: DataSourceType;
  status: DataSourceStatus;
  /** Connection settings without the password, which is never returned; `{}` for a file source. */
  config: (Omit<DatabaseConfig, 'ssl'> & { ssl: boolean }) | Record<string, never>;
  createdAt: string;
  updatedAt: string;
}

export function presentDataSource(s: DataSource): DataSourceView {
  const c = s.config as Partial<DatabaseConfig>;
  return {
    id: s.id,
    name: s.name,
    type: s.type,
    status: s.status,
    config:
      s.type === 'file'
        ? {}
        : {
            host: c.host ?? '',
            port: c.port ?? 0,
            database: c.database ?? '',
            user: c.user ?? '',
            ssl: c.ssl === true,
          },
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}
