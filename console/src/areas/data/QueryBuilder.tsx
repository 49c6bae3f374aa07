import type { ReadParams, ReadResult, SourceObjectDetail } from '@svc/client';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api';
import { ErrorBox } from '../../components/States';
import { useSession } from '../../session';
import { toReadParams, type FilterDraft, type OrderDraft } from './readBody';
import { FilterRows, OrderRows } from './ReadFilters';
import { ResultGrid } from './ResultGrid';
import { SaveTableForm } from './SaveTableForm';

/**
 * A structured read of one object: columns, filters, order and limit, never SQL (the service checks every
 * name against the live schema and binds every value, docs/api/data-sources.md). The read that ran can be
 * kept as a saved table.
 */
export function QueryBuilder({ sourceId, object }: { sourceId: string; object: SourceObjectDetail }) {
  const { can } = useSession();
  const all = object.columns;
  const [chosen, setChosen] = useState<string[]>(all.map((c) => c.name));
  const [filters, setFilters] = useState<FilterDraft[]>([]);
  const [order, setOrder] = useState<OrderDraft[]>([]);
  const [limit, setLimit] = useState('100');
  const limitOk = /^\d{1,4}$/.test(limit) && Number(limit) >= 1 && Number(limit) <= 1000;
  const read = useMutation({
    mutationFn: (params: ReadParams) =>
      api<ReadResult>(`/v1/data-sources/${sourceId}/read`, { method: 'POST', json: params }).then((result) => ({
        params,
        result,
      })),
  });
  const toggle = (name: string) =>
    setChosen((cur) =>
      cur.includes(name)
        ? cur.filter((c) => c !== name)
        : all.map((c) => c.name).filter((c) => c === name || cur.includes(c)),
    );
  return (
    <div>
      <h2>Read {object.name}</h2>
      <form
        className="panel"
        onSubmit={(e) => {
          e.preventDefault();
          read.mutate(toReadParams(object.name, all, chosen, filters, order, Number(limit)));
        }}
      >
        <fieldset>
          <legend>Columns</legend>
          <div className="checks">
            {all.map((c) => (
              <label key={c.name} className="check">
                <input type="checkbox" checked={chosen.includes(c.name)} onChange={() => toggle(c.name)} /> {c.name}{' '}
                <span className="small muted">
                  {c.type}
                  {c.nullable ? ', nullable' : ''}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <FilterRows columns={all} value={filters} onChange={setFilters} />
        <OrderRows columns={all} value={order} onChange={setOrder} />
        <div className="field">
          <label htmlFor="read-limit">Rows at most (1 to 1000)</label>
          <input
            id="read-limit"
            type="number"
            min={1}
            max={1000}
            value={limit}
            onChange={(e) => setLimit(e.target.value)}
          />
        </div>
        <ErrorBox error={read.error} title="Could not read" />
        <button className="primary" type="submit" disabled={!limitOk || chosen.length === 0 || read.isPending}>
          {read.isPending ? 'Reading…' : 'Read'}
        </button>
      </form>
      {read.data ? (
        <>
          <h3>Result</h3>
          <p role="status" data-testid="read-status">
            {read.data.result.rows.length} rows
            {read.data.result.truncated ? ' (more exist, or the size budget was reached)' : ''}
          </p>
          <ResultGrid
            label={`Rows of ${object.name}`}
            columns={read.data.result.columns}
            rows={read.data.result.rows}
          />
          {can('data_sources:manage') ? <SaveTableForm sourceId={sourceId} read={read.data.params} /> : null}
        </>
      ) : null}
    </div>
  );
}
