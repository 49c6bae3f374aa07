import type { SavedTable, SavedTableStatus } from '../../db/entities/SavedTable';

export interface SavedTableView {
  id: string;
  name: string;
  dataSourceId: string;
  read: Record<string, unknown>;
  refresh: { cron: string | null };
  rowCount: number;
  columns: string[];
  refreshedAt: string | null;
  status: SavedTableStatus;
  /** The last refresh's error, when it failed; its rows are those of the last good refresh. */
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

export function presentSavedTable(t: SavedTable): SavedTableView {
  return {
    id: t.id,
    name: t.name,
    dataSourceId: t.dataSourceId,
    read: t.read,
    refresh: { cron: t.cron },
    rowCount: t.rowCount,
    columns: t.columns,
    refreshedAt: t.refreshedAt?.toISOString() ?? null,
    status: t.status,
    error: t.error,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}
