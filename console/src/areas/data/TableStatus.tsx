import type { SavedTable } from '@svc/client';

const LABELS: Record<SavedTable['status'], string> = {
  pending: 'Refreshing',
  ok: 'Up to date',
  error: 'Refresh failed',
};
const CLASSES: Record<SavedTable['status'], string> = {
  pending: 'badge badge-running',
  ok: 'badge badge-succeeded',
  error: 'badge badge-failed',
};

export function TableStatus({ table }: { table: Pick<SavedTable, 'status'> }) {
  return <span className={CLASSES[table.status]}>{LABELS[table.status]}</span>;
}
