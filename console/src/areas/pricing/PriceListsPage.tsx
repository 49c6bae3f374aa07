import type { PriceList } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api';
import { DataTable } from '../../components/DataTable';
import { Empty, ErrorBox, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { useSession } from '../../session';

/** `/price-lists`: what the workspace charges its own customers; never what the service charges it. */
export function PriceListsPage() {
  const { can } = useSession();
  const lists = useQuery({
    queryKey: ['price-lists'],
    queryFn: () => api<{ priceLists: PriceList[]; nextCursor: string | null }>('/v1/price-lists?limit=100'),
  });
  return (
    <section>
      <h1>Price lists</h1>
      <p className="muted">
        What this workspace charges its own customers (published apps, usage reports). They never change what the
        service charges the workspace.
      </p>
      {can('agents:write') ? <CreatePriceList /> : null}
      <QueryState query={lists} what="price lists">
        {(d) =>
          d.priceLists.length === 0 ? (
            <Empty>No price lists yet.</Empty>
          ) : (
            <DataTable label="Price lists" columns={['Name', 'Default', 'Created']}>
              {d.priceLists.map((l) => (
                <tr key={l.id}>
                  <td>
                    <Link to={`/price-lists/${l.id}`}>{l.name}</Link>
                  </td>
                  <td>{l.isDefault ? <span className="badge badge-succeeded">default</span> : '—'}</td>
                  <td>{when(l.createdAt)}</td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryState>
    </section>
  );
}

function CreatePriceList() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [isDefault, setIsDefault] = useState(false);
  const create = useMutation({
    mutationFn: () => api<PriceList>('/v1/price-lists', { method: 'POST', json: { name: name.trim(), isDefault } }),
    onSuccess: (l) => {
      void client.invalidateQueries({ queryKey: ['price-lists'] });
      navigate(`/price-lists/${l.id}`);
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
      <h2>New price list</h2>
      <div className="field">
        <label htmlFor="price-list-name">Name</label>
        <input id="price-list-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <label className="check">
        <input type="checkbox" checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)} /> The workspace's
        default list
      </label>
      <ErrorBox error={create.error} title="Could not create the price list" />
      <div className="actions">
        <button className="primary" type="submit" disabled={create.isPending || !name.trim()}>
          Create the price list
        </button>
      </div>
    </form>
  );
}
