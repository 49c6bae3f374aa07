import { useState } from 'react';
import type { FlowRunStatus, FlowStepStatus } from '@svc/client';

const LABELS: Record<FlowRunStatus | FlowStepStatus, string> = {
  queued: 'Queued',
  pending: 'Pending',
  running: 'Running',
  waiting: 'Waiting for approval',
  waiting_approval: 'Waiting for approval',
  succeeded: 'Succeeded',
  failed: 'Failed',
  skipped: 'Skipped',
  cancelled: 'Cancelled',
};
// the run badges' colours (console/src/styles.css) for the flow statuses that mean the same
const LOOK: Record<FlowRunStatus | FlowStepStatus, string> = {
  queued: 'queued',
  pending: 'queued',
  running: 'running',
  waiting: 'needs_approval',
  waiting_approval: 'needs_approval',
  succeeded: 'succeeded',
  failed: 'failed',
  skipped: 'skipped',
  cancelled: 'cancelled',
};

/** A flow run's or a step's status. */
export function FlowStatusBadge({ status }: { status: FlowRunStatus | FlowStepStatus }) {
  return <span className={`badge badge-${LOOK[status] ?? status}`}>{LABELS[status] ?? status}</span>;
}

/** A URL holding a secret, shown once: read-only, selected on focus, with a copy button. */
export function OnceShownUrl({ url, label }: { url: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="secret" role="status">
      <p>
        <strong>{label}</strong> Copy it now: it is shown only this once (rotate it to get a new one).
      </p>
      <label htmlFor="flow-webhook-url">Webhook URL</label>
      <div className="row">
        <input id="flow-webhook-url" readOnly value={url} onFocus={(e) => e.target.select()} className="code" />
        <button
          type="button"
          onClick={() => {
            void navigator.clipboard?.writeText(url).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}
