/** Shapes of the finance area (the service's docs/api/finance.md). */

export interface FinanceLineError {
  line: number;
  message: string;
}

export interface FinanceImport {
  id: string;
  fileId: string;
  format: 'csv' | 'ofx';
  account: string;
  status: string;
  rows: number;
  imported: number;
  duplicates: number;
  errors: FinanceLineError[];
  createdAt: string;
}

/** Which CSV columns (header names) hold what. */
export interface FinanceCsvMapping {
  date: string;
  description: string;
  amount?: string;
  debit?: string;
  credit?: string;
  currency?: string;
  counterparty?: string;
  dateFormat?:
    | 'YYYY-MM-DD'
    | 'DD.MM.YYYY'
    | 'DD/MM/YYYY'
    | 'MM/DD/YYYY'
    | 'DD-MM-YYYY'
    | 'YYYY/MM/DD'
    | 'YYYYMMDD'
    | 'MM/DD/YY'
    | 'DD/MM/YY'
    | 'DD.MM.YY';
  decimal?: '.' | ',';
  /** The currency of rows that name none (default USD). */
  defaultCurrency?: string;
  /** The file writes money out as positive. */
  negate?: boolean;
}

export interface FinanceImportParams {
  fileId: string;
  format: 'csv' | 'ofx';
  account?: string;
  mapping?: FinanceCsvMapping;
}

export interface FinanceTransaction {
  id: string;
  date: string;
  description: string;
  /** Exact signed decimal text in `currency` (`"-12.50"`), never converted. */
  amount: string;
  /** The same in integer minor units of `currency` (`-1250`). */
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

export interface FinanceTransactionQuery {
  from?: string;
  to?: string;
  categoryId?: string;
  q?: string;
  limit?: number;
}

export interface FinanceTransactionUpdate {
  categoryId?: string | null;
  note?: string | null;
  counterparty?: string | null;
}

export interface FinanceCategory {
  id: string;
  name: string;
  kind: 'income' | 'expense' | 'transfer';
  isDefault: boolean;
  createdAt: string;
}

export interface FinanceRuleMatch {
  descriptionContains?: string;
  descriptionRegex?: string;
  amountMin?: number;
  amountMax?: number;
}

export interface FinanceRule {
  id: string;
  match: FinanceRuleMatch;
  categoryId: string;
  priority: number;
  createdAt: string;
}

export interface FinanceRuleParams {
  match: FinanceRuleMatch;
  categoryId: string;
  priority?: number;
}

export interface FinanceApplyResult {
  examined: number;
  updated: number;
}

export interface FinanceTotals {
  currency: string;
  /** Exact decimal text in `currency`. */
  in: string;
  out: string;
  net: string;
  count: number;
}

export interface FinanceSummary {
  groupBy: 'category' | 'month';
  from: string | null;
  to: string | null;
  groups: Array<FinanceTotals & { key: string | null }>;
  totals: FinanceTotals[];
}
