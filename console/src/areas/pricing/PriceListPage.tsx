import type { PriceList } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../api';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ErrorBox, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { useSession } from '../../session';
import { QuoteTester } from './QuoteTester';
import { Rules } from './Rules';

/** `/price-lists/:id`: the list, its rules and a quote tester. */
export function PriceListPage() {
  const { id = '' } = useParams();
  const { can } = useSession();
  const list = useQuery({ queryKey: ['price-lists', id], queryFn: () => api<PriceList>(`/v1/price-lists/${id}`) });
  return (
    <section>
      <p>
        <Link to="/price-lists">← All price lists</Link>
      </p>
      <QueryState query={list} what="the price list">
        {(l) => (
          <>
            <h1 className="wrap">
              {l.name} {l.isDefault ? <span className="badge badge-succeeded">default</span> : null}
            </h1>
            <p className="muted">Created {when(l.createdAt)}</p>
            {can('agents:write') ? <EditPriceList key={l.updatedAt} list={l} /> : null}
            <Rules priceListId={l.id} />
            <QuoteTester priceListId={l.id} />
          </>
        )}
      </QueryState>
    </section>
  );
}

function EditPriceList({ list }: { list: PriceList }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState(list.name);
  const [isDefault, setIsDefault] = useState(list.isDefault);
  const save = useMutation({
    mutationFn: () =>
      api<PriceList>(`/v1/price-lists/${list.id}`, { method: 'PATCH', json: { name: name.trim(), isDefault } }),
    onSuccess: (l) => {
      client.setQueryData(['price-lists', list.id], l);
      // another list may have lost the default mark
      void client.invalidateQueries({ queryKey: ['price-lists'], exact: true });
    },
  });
  const remove = useMutation({
    mutationFn: () => api(`/v1/price-lists/${list.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['price-lists'] });
      navigate('/price-lists');
    },
  });
  return (
    <details className="panel">
      <summary>Rename, set as default or delete</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <div className="field">
          <label htmlFor="price-list-edit-name">Name</label>
          <input
            id="price-list-edit-name"
            required
            maxLength={200}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <label className="check">
          <input type="checkbox" checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)} /> The workspace's
          default list
        </label>
        <ErrorBox error={save.error} title="Could not save" />
        <div className="actions">
          <button className="primary" type="submit" disabled={save.isPending || !name.trim()}>
            Save
          </button>
          <ConfirmDelete
            confirmLabel="Yes, delete the list and its rules"
            pending={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </div>
        <ErrorBox error={remove.error} title="Could not delete" />
      </form>
    </details>
  );
}
