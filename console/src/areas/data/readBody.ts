import type { ReadOperator, ReadParams, SourceColumn } from '@svc/client';

export interface FilterDraft {
  column: string;
  op: ReadOperator;
  value: string;
}

export interface OrderDraft {
  column: string;
  desc: boolean;
}

// A record over the client's union: an operator the service adds cannot be missing here unnoticed.
export const OPERATOR_LABELS: Record<ReadOperator, string> = {
  eq: '=',
  ne: '≠',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  like: 'like (% and _)',
  in: 'in (comma-separated)',
  is_null: 'is null / is not null',
};

type Scalar = string | number | boolean;

/** A typed-in value as the read takes it: `true`/`false` for a boolean column, else the text (the service reads numbers from text). */
function scalar(text: string, column: SourceColumn | undefined): Scalar {
  const t = text.trim();
  if (column && column.type.toLowerCase().startsWith('bool') && (t === 'true' || t === 'false')) return t === 'true';
  return t;
}

/** The structured read the builder's state describes (docs/api/data-sources.md). */
export function toReadParams(
  object: string,
  allColumns: SourceColumn[],
  chosen: string[],
  filters: FilterDraft[],
  order: OrderDraft[],
  limit: number,
): ReadParams {
  const byName = new Map(allColumns.map((c) => [c.name, c]));
  const where = filters
    .filter((f) => f.column)
    .map((f) => {
      const col = byName.get(f.column);
      if (f.op === 'is_null') return { column: f.column, op: f.op, value: f.value !== 'false' };
      if (f.op === 'in')
        return {
          column: f.column,
          op: f.op,
          value: f.value
            .split(',')
            .map((v) => v.trim())
            .filter((v) => v !== '')
            .map((v) => scalar(v, col)),
        };
      return { column: f.column, op: f.op, value: scalar(f.value, col) };
    });
  const orderBy = order
    .filter((o) => o.column)
    .map((o) => (o.desc ? { column: o.column, desc: true } : { column: o.column }));
  return {
    object,
    ...(chosen.length > 0 && chosen.length < allColumns.length ? { columns: chosen } : {}),
    ...(where.length > 0 ? { where } : {}),
    ...(orderBy.length > 0 ? { orderBy } : {}),
    limit,
  };
}
