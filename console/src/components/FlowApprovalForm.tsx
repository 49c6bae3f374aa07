import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FlowRun } from '@svc/client';
import { api, ApiError } from '../api';
import { ErrorBox } from './States';

/**
 * Approve or reject the approval step a flow run waits at (`POST /v1/flow-runs/{id}/approval`,
 * docs/api/flows.md#flow-runs), with an optional comment; a rejection fails the flow run with the comment
 * as its message. An answer someone else gave first is 409, shown as "Already answered".
 */
export function FlowApprovalForm({ run }: { run: FlowRun }) {
  const id = useId();
  const client = useQueryClient();
  const [comment, setComment] = useState('');
  const answer = useMutation({
    mutationFn: (approved: boolean) =>
      api<FlowRun>(`/v1/flow-runs/${run.id}/approval`, {
        method: 'POST',
        json: { approved, ...(comment.trim() ? { comment: comment.trim() } : {}) },
      }),
    onSuccess: (r) => client.setQueryData(['flow-run', run.id], r),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ['flow-run', run.id] });
      void client.invalidateQueries({ queryKey: ['flow-runs'] });
      void client.invalidateQueries({ queryKey: ['waiting-flow-runs'] });
    },
  });
  const pending = run.pendingApproval;
  if (!pending) return null;
  if (answer.error instanceof ApiError && answer.error.status === 409) {
    return (
      <p className="notice" role="status">
        Already answered: this approval was answered elsewhere or the flow run moved on.
      </p>
    );
  }
  if (answer.isSuccess) {
    return (
      <p className="notice" role="status">
        Decision sent.
      </p>
    );
  }
  return (
    <div className="gate">
      <p className="question">
        <strong>Step {pending.step} asks:</strong> {pending.message}
      </p>
      <div className="field">
        <label htmlFor={id}>Comment (optional)</label>
        <input id={id} maxLength={10_000} value={comment} onChange={(e) => setComment(e.target.value)} />
      </div>
      <div className="actions">
        <button className="primary" type="button" disabled={answer.isPending} onClick={() => answer.mutate(true)}>
          Approve
        </button>
        <button className="danger" type="button" disabled={answer.isPending} onClick={() => answer.mutate(false)}>
          Reject
        </button>
      </div>
      <ErrorBox error={answer.error} title="Could not send" />
    </div>
  );
}
