import type { ReadPlan } from './types';

/** How one SQL dialect quotes identifiers and numbers its parameters. */
export interface Dialect {
  quote(identifier: string): string;
  param(index: number): string;
  /** The column as text, for `like` on any column type. */
  asText(quotedColumn: string): string;
}

export const postgresDialect: Dialect = {
  quote: (id) => `"${id.replace(/"/g, '""')}"`,
  param: (i) => `$${i}`,
  asText: (col) => `CAST(${col} AS text)`,
};

export const mysqlDialect: Dialect = {
  quote: (id) => `\`${id.replace(/`/g, '``')}\``,
  param: () => '?',
  asText: (col) => col,
};

const COMPARE = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/**
 * The SELECT of a checked plan: identifiers quoted (they are known columns of `from`, quoted all the
 * same), every value a parameter. Asks for one row more than the limit, to tell `truncated`.
 */
export function buildSelect(dialect: Dialect, from: string, plan: ReadPlan): { sql: string; values: unknown[] } {
  const values: unknown[] = [];
  const next = (value: unknown) => {
    values.push(value);
    return dialect.param(values.length);
  };
  const q = dialect.quote;
  const conditions = plan.where.map(({ column, op, value }) => {
    const col = q(column);
    if (op === 'is_null') return value === false ? `${col} IS NOT NULL` : `${col} IS NULL`;
    if (op === 'in') return `${col} IN (${(value as unknown[]).map(next).join(', ')})`;
    if (op === 'like') return `${dialect.asText(col)} LIKE ${next(value)}`;
    return `${col} ${COMPARE[op]} ${next(value)}`;
  });
  let sql = `SELECT ${plan.columns.map(q).join(', ')} FROM ${from}`;
  if (conditions.length > 0) sql += ` WHERE ${conditions.join(' AND ')}`;
  if (plan.orderBy.length > 0) {
    sql += ` ORDER BY ${plan.orderBy.map((o) => `${q(o.column)}${o.desc ? ' DESC' : ' ASC'}`).join(', ')}`;
  }
  sql += ` LIMIT ${Number(plan.limit) + 1}`;
  return { sql, values };
}
