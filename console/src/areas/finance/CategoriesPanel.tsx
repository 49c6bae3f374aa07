import type { FinanceCategory } from '@svc/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api';
import { ErrorBox, QueryState } from '../../components/States';
import { useSession } from '../../session';
import { useCategories } from './hooks';

const KINDS: FinanceCategory['kind'][] = ['income', 'expense', 'transfer'];

/** The categories by kind, and a form for a new one. */
export function CategoriesPanel() {
  const { can } = useSession();
  const client = useQueryClient();
  const categories = useCategories();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<FinanceCategory['kind']>('expense');
  const create = useMutation({
    mutationFn: () =>
      api<FinanceCategory>('/v1/finance/categories', { method: 'POST', json: { name: name.trim(), kind } }),
    onSuccess: () => {
      setName('');
      void client.invalidateQueries({ queryKey: ['finance', 'categories'] });
    },
  });
  return (
    <>
      <h2>Categories</h2>
      <QueryState query={categories} what="the categories">
        {(d) => (
          <dl className="facts">
            {KINDS.map((k) => (
              <div key={k} style={{ display: 'contents' }}>
                <dt>{k[0].toUpperCase() + k.slice(1)}</dt>
                <dd>
                  {d.categories
                    .filter((c) => c.kind === k)
                    .map((c) => c.name)
                    .join(', ') || '—'}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </QueryState>
      {can('finance:write') ? (
        <form
          className="panel"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <h3>Add a category</h3>
          <div className="row">
            <div className="field">
              <label htmlFor="cat-name">Name</label>
              <input id="cat-name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="cat-kind">Kind</label>
              <select id="cat-kind" value={kind} onChange={(e) => setKind(e.target.value as FinanceCategory['kind'])}>
                {KINDS.map((k) => (
                  <option key={k} value={k}>
                    {k}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <ErrorBox error={create.error} title="Could not add the category" />
          <button type="submit" disabled={!name.trim() || create.isPending}>
            Add category
          </button>
        </form>
      ) : null}
    </>
  );
}
