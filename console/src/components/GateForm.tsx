import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, ApiError } from '../api';
import type { Run } from '../types';
import { JsonEditor, jsonProblem } from './JsonEditor';
import { ErrorBox } from './States';
import { json } from './format';

/** The answer form for the gate a run waits at: input, approval or review (docs/api/runs.md#gates). */
export function GateForm({ run }: { run: Run }) {
  const action = run.pendingAction;
  const client = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  const answer = useMutation({
    mutationFn: ({ path, body }: { path: string; body: Record<string, unknown> }) =>
      api<Run>(`/v1/runs/${run.id}/${path}`, { method: 'POST', json: { ...body, actionId: action?.id } }),
    onSuccess: (_r, v) =>
      setDone(v.path === 'input' ? 'Answer sent' : v.path === 'approve' ? 'Decision sent' : 'Review sent'),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ['runs'] });
      void client.invalidateQueries({ queryKey: ['run', run.id] });
    },
  });
  if (!action) return null;
  const stale = answer.error instanceof ApiError && answer.error.status === 409;
  if (stale) {
    return (
      <p className="notice" role="status">
        Already answered: this request was answered elsewhere or the run moved on.
      </p>
    );
  }
  if (done) {
    return (
      <p className="notice" role="status">
        {done}.
      </p>
    );
  }
  const busy = answer.isPending;
  const send = (path: string, body: Record<string, unknown>) => answer.mutate({ path, body });
  return (
    <div className="gate">
      {action.type === 'input' ? <InputGate question={action.question} busy={busy} send={send} /> : null}
      {action.type === 'approval' ? <ApprovalGate run={run} busy={busy} send={send} /> : null}
      {action.type === 'review' ? <ReviewGate proposed={action.proposedOutput} busy={busy} send={send} /> : null}
      <ErrorBox error={answer.error} title="Could not send" />
    </div>
  );
}

type Send = (path: string, body: Record<string, unknown>) => void;

function InputGate({ question, busy, send }: { question?: string; busy: boolean; send: Send }) {
  const id = useId();
  const [text, setText] = useState('');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        send('input', { answer: text });
      }}
    >
      <p className="question">
        <strong>Question:</strong> {question ?? '(no question text)'}
      </p>
      <div className="field">
        <label htmlFor={id}>Your answer</label>
        <textarea id={id} rows={3} required value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      <button className="primary" type="submit" disabled={busy || !text.trim()}>
        Send answer
      </button>
    </form>
  );
}

function ApprovalGate({ run, busy, send }: { run: Run; busy: boolean; send: Send }) {
  const id = useId();
  const action = run.pendingAction!;
  const [comment, setComment] = useState('');
  const body = (approved: boolean) => ({ approved, ...(comment.trim() ? { comment: comment.trim() } : {}) });
  return (
    <div>
      {action.tool ? (
        <>
          <p>
            <strong>Proposed tool call:</strong> <code>{action.tool}</code>
          </p>
          <pre className="json" aria-label="Tool arguments">
            {json(action.args ?? {})}
          </pre>
        </>
      ) : (
        <>
          <p>
            <strong>Proposed output:</strong>
          </p>
          <pre className="json" aria-label="Proposed output">
            {json(action.proposedOutput ?? null)}
          </pre>
        </>
      )}
      <div className="field">
        <label htmlFor={id}>Comment (optional)</label>
        <input id={id} value={comment} onChange={(e) => setComment(e.target.value)} />
      </div>
      <div className="actions">
        <button className="primary" type="button" disabled={busy} onClick={() => send('approve', body(true))}>
          Approve
        </button>
        <button className="danger" type="button" disabled={busy} onClick={() => send('approve', body(false))}>
          Reject
        </button>
      </div>
    </div>
  );
}

function ReviewGate({ proposed, busy, send }: { proposed: unknown; busy: boolean; send: Send }) {
  const [text, setText] = useState(json(proposed ?? null));
  const problem = jsonProblem(text);
  return (
    <div>
      <p>
        <strong>Proposed output:</strong>
      </p>
      <pre className="json" aria-label="Proposed output">
        {json(proposed ?? null)}
      </pre>
      <JsonEditor label="Corrected output (JSON)" value={text} onChange={setText} />
      <div className="actions">
        <button className="primary" type="button" disabled={busy} onClick={() => send('review', { accept: true })}>
          Accept
        </button>
        <button
          type="button"
          disabled={busy || problem !== null}
          onClick={() => send('review', { accept: true, correctedOutput: JSON.parse(text) })}
        >
          Accept with correction
        </button>
        <button className="danger" type="button" disabled={busy} onClick={() => send('review', { accept: false })}>
          Reject
        </button>
      </div>
    </div>
  );
}
