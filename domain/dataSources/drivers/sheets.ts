import type { EntityManager } from '@mikro-orm/postgresql';
import { DataSourceSheet } from '../../../db/entities/DataSourceSheet';
import { RowBudget } from './budget';
import type { Driver, ReadPlan, Scalar } from './types';
import { likeMatcher } from './likePattern';

/** A file source: its sheets live in PostgreSQL, parsed at upload (files.ts); reads filter them here. */
export function openSheets(em: EntityManager, dataSourceId: string, maxReadBytes: number): Driver {
  const load = (name: string) => em.findOne(DataSourceSheet, { dataSourceId, name }, { populate: ['rows'] });
  return {
    async ping() {},
    async listObjects() {
      const sheets = await em.find(DataSourceSheet, { dataSourceId }, { orderBy: { name: 'asc' }, fields: ['name'] });
      return sheets.map((s) => ({ name: s.name, kind: 'sheet' as const }));
    },
    async describe(name) {
      const sheet = await em.findOne(DataSourceSheet, { dataSourceId, name }, { fields: ['columns'] });
      return sheet ? sheet.columns.map((c) => ({ ...c })) : null;
    },
    async read(plan: ReadPlan) {
      const sheet = await load(plan.object);
      if (!sheet) throw new Error(`sheet ${plan.object} disappeared`);
      const index = new Map(sheet.columns.map((c, i) => [c.name, i]));
      const at = (row: unknown[], column: string) => row[index.get(column)!] ?? null;
      const tests = plan.where.map((w) => {
        const match = matcher(w.op, w.value);
        return (row: unknown[]) => match(at(row, w.column));
      });
      const rows = sheet.rows.filter((row) => tests.every((t) => t(row)));
      if (plan.orderBy.length > 0) {
        rows.sort((a, b) => {
          for (const o of plan.orderBy) {
            const c = compare(at(a, o.column), at(b, o.column));
            if (c !== 0) return o.desc ? -c : c;
          }
          return 0;
        });
      }
      const budget = new RowBudget(maxReadBytes, plan.limit);
      for (const row of rows) if (!budget.take(plan.columns.map((c) => at(row, c)))) break;
      return {
        columns: plan.columns,
        rows: budget.rows.map((values) => Object.fromEntries(plan.columns.map((c, i) => [c, values[i]]))),
        truncated: budget.truncated,
      };
    },
    async close() {},
  };
}

/** SQL's ordering for one column: numbers by value, text by code point, nulls last (as PostgreSQL ascending). */
function compare(a: unknown, b: unknown): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Equality as SQL would compare a typed cell with a parameter: "5" equals 5 in a number column. */
function same(cell: unknown, value: Scalar): boolean {
  if (typeof cell === 'number') return cell === Number(value);
  if (typeof cell === 'boolean') return String(cell) === String(value).toLowerCase();
  return String(cell) === String(value);
}

function matcher(op: ReadPlan['where'][number]['op'], value: unknown): (cell: unknown) => boolean {
  if (op === 'is_null') return (cell) => (cell === null) === (value !== false);
  if (op === 'in') return (cell) => cell !== null && (value as Scalar[]).some((v) => same(cell, v));
  if (op === 'like') {
    const matches = likeMatcher(String(value));
    return (cell) => cell !== null && matches(String(cell));
  }
  const v = value as Scalar;
  return (cell) => {
    if (cell === null) return false;
    if (op === 'eq') return same(cell, v);
    if (op === 'ne') return !same(cell, v);
    const c = typeof cell === 'number' ? compare(cell, Number(v)) : compare(String(cell), String(v));
    return op === 'gt' ? c > 0 : op === 'gte' ? c >= 0 : op === 'lt' ? c < 0 : c <= 0;
  };
}
