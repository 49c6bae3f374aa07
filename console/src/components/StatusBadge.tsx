import type { RunStatus } from '../types';

const LABELS: Record<RunStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  needs_input: 'Needs input',
  needs_approval: 'Needs approval',
  needs_review: 'Needs review',
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function StatusBadge({ status }: { status: RunStatus }) {
  return <span className={`badge badge-${status}`}>{LABELS[status] ?? status}</span>;
}

export const statusLabel = (s: RunStatus) => LABELS[s] ?? s;
