import type { FinanceRule, FinanceRuleMatch, FinanceTransaction } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api';
import { ErrorBox } from '../../components/States';
import { useCategories } from './hooks';
import { compileMatch } from './rulePreview';

const PREVIEW_OF = 100;

/**
 * A new rule, with a preview of what it would match among the latest transactions (the service has no
 * dry run for rules, so the preview applies the documented matching in the browser).
 */
export function RuleForm() {
  const client = useQueryClient();
  const categories = useCategories();
  const [contains, setContains] = useState('');
  const [regex, setRegex] = useState('');
  const [min, setMin] = useState('');
  const [max, setMax] = useState('');
  const [categoryId, setCategoryId] = useState('');
  const [priority, setPriority] = useState('0');
  const recent = useQuery({
    queryKey: ['finance', 'transactions', 'recent'],
    queryFn: () => api<{ transactions: FinanceTransaction[] }>(`/v1/finance/transactions?limit=${PREVIEW_OF}`),
  });
  const match: FinanceRuleMatch = {
    ...(contains.trim() ? { descriptionContains: contains.trim() } : {}),
    ...(regex ? { descriptionRegex: regex } : {}),
    ...(min.trim() !== '' && Number.isFinite(Number(min)) ? { amountMin: Number(min) } : {}),
    ...(max.trim() !== '' && Number.isFinite(Number(max)) ? { amountMax: Number(max) } : {}),
  };
  const hasCondition = Object.keys(match).length > 0;
  const compiled = compileMatch(match);
  const matched = hasCondition ? (recent.data?.transactions ?? []).filter(compiled.test) : [];
  const create = useMutation({
    mutationFn: () =>
      api<FinanceRule>('/v1/finance/rules', {
        method: 'POST',
        json: { match, categoryId, priority: Number(priority) || 0 },
      }),
    onSuccess: () => {
      setContains('');
      setRegex('');
      setMin('');
      setMax('');
      void client.invalidateQueries({ queryKey: ['finance', 'rules'] });
    },
  });
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h3>Add a rule</h3>
      <div className="row">
        <div className="field">
          <label htmlFor="rule-contains">Description contains (any case)</label>
          <input id="rule-contains" maxLength={200} value={contains} onChange={(e) => setContains(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="rule-regex">Description matches (RE2 regular expression)</label>
          <input
            id="rule-regex"
            className="code"
            maxLength={500}
            value={regex}
            onChange={(e) => setRegex(e.target.value)}
          />
        </div>
      </div>
      <div className="row">
        <div className="field">
          <label htmlFor="rule-min">Amount at least (signed)</label>
          <input id="rule-min" type="number" step="any" value={min} onChange={(e) => setMin(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="rule-max">Amount at most (signed)</label>
          <input id="rule-max" type="number" step="any" value={max} onChange={(e) => setMax(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="rule-category">Category</label>
          <select id="rule-category" required value={categoryId} onChange={(e) => setCategoryId(e.target.value)}>
            <option value="">(choose)</option>
            {categories.data?.categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="rule-priority">Priority</label>
          <input
            id="rule-priority"
            type="number"
            min={-1000}
            max={1000}
            step={1}
            value={priority}
            onChange={(e) => setPriority(e.target.value)}
          />
        </div>
      </div>
      <div className="panel" aria-live="polite" data-testid="rule-preview">
        <h4>Test this rule</h4>
        {!hasCondition ? (
          <p className="small muted">Give at least one condition to see what it matches.</p>
        ) : compiled.error ? (
          <p className="invalid small">The pattern cannot be read: {compiled.error}</p>
        ) : recent.isPending ? (
          <p className="small muted">Loading the latest transactions…</p>
        ) : (
          <>
            <p className="small">
              Matches {matched.length} of the latest {recent.data?.transactions.length ?? 0} transactions.
            </p>
            {matched.length > 0 ? (
              <ul className="list small">
                {matched.slice(0, 10).map((t) => (
                  <li key={t.id}>
                    {t.date} · {t.description} · {t.amount} {t.currency}
                  </li>
                ))}
              </ul>
            ) : null}
          </>
        )}
      </div>
      <ErrorBox error={create.error} title="Could not add the rule" />
      <button className="primary" type="submit" disabled={!hasCondition || !categoryId || create.isPending}>
        Add rule
      </button>
    </form>
  );
}
