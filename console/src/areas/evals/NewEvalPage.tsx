import type { Eval } from '@svc/client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api';
import { ErrorBox, QueryState } from '../../components/States';
import { useSession } from '../../session';
import { CaseEditor, draftProblem, emptyCase, fromDraft, toDraft, type CaseDraft } from './CaseEditor';

/** At most this many cases per eval (docs/api/evals.md). */
const MAX_CASES = 100;

/**
 * `/evals/new?agentId=` writes a new eval; `?from=<evalId>` starts from an eval's name and cases. An eval
 * is never changed in place (its runs were scored against its cases), so editing one saves a new eval.
 */
export function NewEvalPage() {
  const [params] = useSearchParams();
  const from = params.get('from');
  const source = useQuery({
    queryKey: ['eval', from],
    queryFn: () => api<Eval>(`/v1/evals/${from}`),
    enabled: !!from,
  });
  const { can } = useSession();
  if (!can('agents:write')) {
    return (
      <section>
        <h1>New eval</h1>
        <ErrorBox error={new Error('Only admins and owners write evals')} title="Not allowed" />
      </section>
    );
  }
  return (
    <section>
      <h1>{from ? 'Edit as a new eval' : 'New eval'}</h1>
      {from ? (
        <QueryState query={source} what="the eval">
          {(e) => <EvalForm agentId={e.agentId} initialName={`${e.name} (edited)`} initial={e.cases.map(toDraft)} />}
        </QueryState>
      ) : params.get('agentId') ? (
        <EvalForm agentId={params.get('agentId')!} initialName="" initial={[emptyCase()]} />
      ) : (
        <ErrorBox error={new Error('Choose an agent on the evals page first')} title="No agent" />
      )}
    </section>
  );
}

function EvalForm({ agentId, initialName, initial }: { agentId: string; initialName: string; initial: CaseDraft[] }) {
  const navigate = useNavigate();
  const [name, setName] = useState(initialName);
  const [cases, setCases] = useState<CaseDraft[]>(initial);
  const create = useMutation({
    mutationFn: () =>
      api<Eval>(`/v1/agents/${agentId}/evals`, {
        method: 'POST',
        json: { name: name.trim(), cases: cases.map(fromDraft) },
      }),
    onSuccess: (e) => navigate(`/evals/${e.id}`),
  });
  const invalid = cases.some((c) => draftProblem(c) !== null);
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <p className="small">
        <Link to={`/evals?agentId=${agentId}`}>← This agent's evals</Link>
      </p>
      <div className="field">
        <label htmlFor="eval-name">Name</label>
        <input id="eval-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      {cases.map((c, i) => (
        <CaseEditor
          key={i}
          index={i}
          draft={c}
          onChange={(d) => setCases((cur) => cur.map((x, k) => (k === i ? d : x)))}
          onRemove={cases.length > 1 ? () => setCases((cur) => cur.filter((_, k) => k !== i)) : undefined}
        />
      ))}
      <div className="actions">
        <button
          type="button"
          disabled={cases.length >= MAX_CASES}
          onClick={() => setCases((cur) => [...cur, emptyCase()])}
        >
          Add a case
        </button>
      </div>
      <ErrorBox error={create.error} title="Could not save the eval" />
      <button className="primary" type="submit" disabled={create.isPending || invalid || !name.trim()}>
        Save the eval
      </button>
    </form>
  );
}
