import type { FinanceApplyResult, FinanceRule } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { api } from '../../api';
import { Empty, ErrorBox, QueryState } from '../../components/States';
import { useSession } from '../../session';
import { CategoriesPanel } from './CategoriesPanel';
import { FinanceTabs } from './FinanceTabs';
import { useCategoryName } from './hooks';
import { describeMatch } from './ruleMatch';

// Its preview runs patterns on RE2 (rulePreview.ts): re2js loads with the form, for those who may write rules.
const RuleForm = lazy(() => import('./RuleForm').then((m) => ({ default: m.RuleForm })));

/** Categories and the rules that set them: add, test against recent transactions, delete, apply. */
export function RulesPage() {
  const { can } = useSession();
  const writer = can('finance:write');
  const client = useQueryClient();
  const categoryName = useCategoryName();
  const rules = useQuery({
    queryKey: ['finance', 'rules'],
    queryFn: () => api<{ rules: FinanceRule[] }>('/v1/finance/rules?limit=100'),
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/v1/finance/rules/${id}`, { method: 'DELETE' }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['finance', 'rules'] }),
  });
  const apply = useMutation({
    mutationFn: () => api<FinanceApplyResult>('/v1/finance/rules/apply', { method: 'POST', json: {} }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['finance'] }),
  });
  const [confirming, setConfirming] = useState<string | null>(null);
  return (
    <section>
      <h1>Categories and rules</h1>
      <FinanceTabs />
      <h2>Rules</h2>
      <p className="small muted">
        The matching rule with the highest priority sets a transaction's category when it is imported (equal priorities:
        the older rule). A category chosen by hand is kept.
      </p>
      {writer ? (
        <Suspense fallback={null}>
          <RuleForm />
        </Suspense>
      ) : null}
      <QueryState query={rules} what="the rules">
        {(d) =>
          d.rules.length === 0 ? (
            <Empty>No rules yet.</Empty>
          ) : (
            <ul className="cards">
              {d.rules.map((r) => (
                <li key={r.id} className="card" data-testid="rule">
                  <p className="card-title">
                    {describeMatch(r.match)} → <strong>{categoryName(r.categoryId)}</strong>
                  </p>
                  <p className="small muted">Priority {r.priority}</p>
                  {writer ? (
                    confirming === r.id ? (
                      <div className="actions">
                        <button className="danger" type="button" onClick={() => remove.mutate(r.id)}>
                          Yes, delete this rule
                        </button>
                        <button type="button" onClick={() => setConfirming(null)}>
                          Keep it
                        </button>
                      </div>
                    ) : (
                      <button className="danger" type="button" onClick={() => setConfirming(r.id)}>
                        Delete
                      </button>
                    )
                  ) : null}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <ErrorBox error={remove.error} title="Could not delete the rule" />
      {writer ? (
        <div className="panel">
          <h3>Apply the rules to stored transactions</h3>
          <p className="small">Every category not chosen by a person becomes what the rules say now.</p>
          <button type="button" disabled={apply.isPending} onClick={() => apply.mutate()}>
            Apply rules
          </button>
          <ErrorBox error={apply.error} title="Could not apply the rules" />
          {apply.data ? (
            <p role="status">
              {apply.data.examined} transactions examined, {apply.data.updated} changed.
            </p>
          ) : null}
        </div>
      ) : null}
      <CategoriesPanel />
    </section>
  );
}
