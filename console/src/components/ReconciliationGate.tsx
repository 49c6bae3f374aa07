import { useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, ApiError } from '../api';
import type { FileItem, Run } from '../types';
import { ErrorBox } from './States';
import { shortId } from './format';

/** One match a reconciliation run proposes (docs/api/finance.md#finance-runs). */
interface ProposedMatch {
  transactionId: string;
  fileId: string;
  amount: string;
  currency: string;
  date: string;
  reason: string;
}

/** Whether a run waits for approval of a reconciliation's proposed matches. */
export const isReconciliationGate = (run: Run) =>
  run.pendingAction?.type === 'approval' && run.pendingAction.tool === 'finance_apply_matches';

/**
 * The approval gate of a finance reconciliation: the matches it proposes as a table with their evidence
 * (the document, the amount and date it shows, why it matched). The service applies the proposal as a
 * whole, so the choice is to approve every match or to reject the lot.
 */
export function ReconciliationGate({ run }: { run: Run }) {
  const id = useId();
  const client = useQueryClient();
  const action = run.pendingAction!;
  const matches = ((action.args as { matches?: ProposedMatch[] } | undefined)?.matches ?? []).filter(Boolean);
  const files = useQueries({
    queries: [...new Set(matches.map((m) => m.fileId))].map((fileId) => ({
      queryKey: ['file', fileId],
      queryFn: () => api<FileItem>(`/v1/files/${fileId}`),
      staleTime: Infinity,
      retry: false,
    })),
  });
  const fileName = (fileId: string) => files.find((f) => f.data?.id === fileId)?.data?.filename ?? shortId(fileId);
  const [comment, setComment] = useState('');
  const answer = useMutation({
    mutationFn: (approved: boolean) =>
      api<Run>(`/v1/runs/${run.id}/approve`, {
        method: 'POST',
        json: { approved, actionId: action.id, ...(comment.trim() ? { comment: comment.trim() } : {}) },
      }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ['runs'] });
      void client.invalidateQueries({ queryKey: ['run', run.id] });
    },
  });
  if (answer.error instanceof ApiError && answer.error.status === 409) {
    return (
      <p className="notice" role="status">
        Already answered: this request was answered elsewhere or the run moved on.
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
      <p>
        <strong>Proposed matches ({matches.length}):</strong> each bank transaction with the document that shows it.
      </p>
      {matches.length === 0 ? (
        <p>The reconciliation found no matches.</p>
      ) : (
        <div className="table-wrap" role="region" aria-label="Proposed matches" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Amount</th>
                <th scope="col">Transaction</th>
                <th scope="col">Document</th>
                <th scope="col">Evidence</th>
              </tr>
            </thead>
            <tbody>
              {matches.map((m) => (
                <tr key={`${m.transactionId}-${m.fileId}`}>
                  <td>{m.date}</td>
                  <td>
                    {m.amount} {m.currency}
                  </td>
                  <td>
                    <code>{shortId(m.transactionId)}</code>
                  </td>
                  <td>{fileName(m.fileId)}</td>
                  <td>{m.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="field">
        <label htmlFor={id}>Comment (optional)</label>
        <input id={id} value={comment} onChange={(e) => setComment(e.target.value)} />
      </div>
      <div className="actions">
        <button className="primary" type="button" disabled={answer.isPending} onClick={() => answer.mutate(true)}>
          Approve all {matches.length} matches
        </button>
        <button className="danger" type="button" disabled={answer.isPending} onClick={() => answer.mutate(false)}>
          Reject the reconciliation
        </button>
      </div>
      <ErrorBox error={answer.error} title="Could not send" />
    </div>
  );
}
