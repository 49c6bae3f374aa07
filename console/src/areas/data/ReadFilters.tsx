import type { ReadOperator, SourceColumn } from '@svc/client';
import { OPERATOR_LABELS, type FilterDraft, type OrderDraft } from './readBody';

/** The read's filters (all must hold), each a column, an operator and a value. At most 10. */
export function FilterRows({
  columns,
  value,
  onChange,
}: {
  columns: SourceColumn[];
  value: FilterDraft[];
  onChange: (f: FilterDraft[]) => void;
}) {
  const set = (i: number, patch: Partial<FilterDraft>) =>
    onChange(value.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  return (
    <fieldset>
      <legend>Filters (all must hold)</legend>
      {value.map((f, i) => (
        <div className="filter-row" key={i} data-testid="filter">
          <div className="field">
            <label htmlFor={`filter-col-${i}`}>Column of filter {i + 1}</label>
            <select id={`filter-col-${i}`} value={f.column} onChange={(e) => set(i, { column: e.target.value })}>
              {columns.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`filter-op-${i}`}>Operator of filter {i + 1}</label>
            <select
              id={`filter-op-${i}`}
              value={f.op}
              onChange={(e) => {
                const op = e.target.value as ReadOperator;
                set(i, { op, value: op === 'is_null' ? 'true' : f.op === 'is_null' ? '' : f.value });
              }}
            >
              {Object.entries(OPERATOR_LABELS).map(([op, label]) => (
                <option key={op} value={op}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`filter-value-${i}`}>Value of filter {i + 1}</label>
            {f.op === 'is_null' ? (
              <select id={`filter-value-${i}`} value={f.value} onChange={(e) => set(i, { value: e.target.value })}>
                <option value="true">is null</option>
                <option value="false">is not null</option>
              </select>
            ) : (
              <input
                id={`filter-value-${i}`}
                maxLength={f.op === 'in' ? 50_000 : 500}
                value={f.value}
                onChange={(e) => set(i, { value: e.target.value })}
              />
            )}
          </div>
          <button type="button" onClick={() => onChange(value.filter((_, j) => j !== i))}>
            Remove filter {i + 1}
          </button>
        </div>
      ))}
      <button
        type="button"
        disabled={value.length >= 10 || columns.length === 0}
        onClick={() => onChange([...value, { column: columns[0].name, op: 'eq', value: '' }])}
      >
        Add a filter
      </button>
    </fieldset>
  );
}

/** The read's sort keys, first one first. At most 10. */
export function OrderRows({
  columns,
  value,
  onChange,
}: {
  columns: SourceColumn[];
  value: OrderDraft[];
  onChange: (o: OrderDraft[]) => void;
}) {
  const set = (i: number, patch: Partial<OrderDraft>) =>
    onChange(value.map((o, j) => (j === i ? { ...o, ...patch } : o)));
  return (
    <fieldset>
      <legend>Order</legend>
      {value.map((o, i) => (
        <div className="filter-row" key={i}>
          <div className="field">
            <label htmlFor={`order-col-${i}`}>Sort key {i + 1}</label>
            <select id={`order-col-${i}`} value={o.column} onChange={(e) => set(i, { column: e.target.value })}>
              {columns.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`order-dir-${i}`}>Direction of sort key {i + 1}</label>
            <select
              id={`order-dir-${i}`}
              value={o.desc ? 'desc' : 'asc'}
              onChange={(e) => set(i, { desc: e.target.value === 'desc' })}
            >
              <option value="asc">Ascending</option>
              <option value="desc">Descending</option>
            </select>
          </div>
          <button type="button" onClick={() => onChange(value.filter((_, j) => j !== i))}>
            Remove sort key {i + 1}
          </button>
        </div>
      ))}
      <button
        type="button"
        disabled={value.length >= 10 || columns.length === 0}
        onClick={() => onChange([...value, { column: columns[0].name, desc: false }])}
      >
        Add a sort key
      </button>
    </fieldset>
  );
}
