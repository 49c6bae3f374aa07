import type { CategoryKind, FinanceCategory } from '../../db/entities/FinanceCategory';
import type { FinanceImport, ImportLineError } from '../../db/entities/FinanceImport';
import type { FinanceRule } from '../../db/entities/FinanceRule';
import type { FinanceTransaction } from '../../db/entities/FinanceTransaction';
import { microsToAmount, presentMoney } from './money';

export interface CategoryView {
  id: string;
  name: string;
  kind: CategoryKind;
  isDefault: boolean;
  createdAt: string;
}

export interface RuleView {
  id: string;
  match: { descriptionContains?: string; descriptionRegex?: string; amountMin?: number; amountMax?: number };
  categoryId: string;
  priority: number;
  createdAt: string;
}

export interface ImportView {
  id: string;
  fileId: string;
  format: 'csv' | 'ofx';
  account: string;
  status: string;
  rows: number;
  imported: number;
  duplicates: number;
  errors: ImportLineError[];
  createdAt: string;
}

export interface TransactionView {
  id: string;
  date: string;
  description: string;
  amount: string;
  amountMinor: number;
  currency: string;
  account: string;
  categoryId: string | null;
  counterparty: string | null;
  note: string | null;
  importId: string;
  reconciled: boolean;
  reconciledFileId: string | null;
  createdAt: string;
}

export function presentCategory(c: FinanceCategory): CategoryView {
  return { id: c.id, name: c.name, kind: c.kind, isDefault: c.isDefault, createdAt: c.createdAt.toISOString() };
}

export function presentRule(r: FinanceRule): RuleView {
  const match: RuleView['match'] = {};
  if (r.descriptionContains !== null) match.descriptionContains = r.descriptionContains;
  if (r.descriptionRegex !== null) match.descriptionRegex = r.descriptionRegex;
  if (r.amountMinMicros !== null) match.amountMin = microsToAmount(r.amountMinMicros);
  if (r.amountMaxMicros !== null) match.amountMax = microsToAmount(r.amountMaxMicros);
  return { id: r.id, match, categoryId: r.category.id, priority: r.priority, createdAt: r.createdAt.toISOString() };
}

export function presentImport(i: FinanceImport): ImportView {
  return {
    id: i.id,
    fileId: i.fileId,
    format: i.format,
    account: i.account,
    status: i.status,
    rows: i.rows,
    imported: i.imported,
    duplicates: i.duplicates,
    errors: i.errors,
    createdAt: i.createdAt.toISOString(),
  };
}

/** A `date` column as `YYYY-MM-DD` whether the driver gave a string or a Date (at local midnight). */
export function dateText(value: string | Date): string {
  if (typeof value === 'string') return value.slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
}

/** A transaction; its money in its own `currency`, exactly, never converted ({@link presentMoney}). */
export function presentTransaction(t: FinanceTransaction): TransactionView {
  return {
    id: t.id,
    date: dateText(t.date),
    description: t.description,
    ...presentMoney(t.amountMicros, t.currency),
    currency: t.currency,
    account: t.account,
    categoryId: t.category?.id ?? null,
    counterparty: t.counterparty,
    note: t.note,
    importId: t.financeImport.id,
    reconciled: t.reconciled,
    reconciledFileId: t.reconciledFileId,
    createdAt: t.createdAt.toISOString(),
  };
}
