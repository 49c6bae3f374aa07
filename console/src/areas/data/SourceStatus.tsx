import type { DataSource } from '@svc/client';

const LABELS: Record<DataSource['status'], string> = { ok: 'Connected', error: 'Failing', untested: 'Not tested' };
const CLASSES: Record<DataSource['status'], string> = {
  ok: 'badge badge-succeeded',
  error: 'badge badge-failed',
  untested: 'badge',
};

export function SourceStatus({ status }: { status: DataSource['status'] }) {
  return <span className={CLASSES[status]}>{LABELS[status]}</span>;
}
