/** `client.finance`: bank imports, transactions, categories, rules, summary and export (`finance:read` / `finance:write`). */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type {
  FinanceApplyResult,
  FinanceCategory,
  FinanceImport,
  FinanceImportParams,
  FinanceRule,
  FinanceRuleParams,
  FinanceSummary,
  FinanceTransaction,
  FinanceTransactionQuery,
  FinanceTransactionUpdate,
} from '../finance-types.js';
import type { ApprovalPolicy, Run } from '../types.js';

const enc = encodeURIComponent;

/** The workspace's finances. */
export class Finance {
  constructor(private readonly http: HttpClient) {}

  /**
   * Imports a bank export already in the file library, all or nothing; rows already imported are counted as duplicates.
   * @throws {ValidationError} for a mapping the header does not fit; 413 over the import limit
   */
  importFile(params: FinanceImportParams, options?: CallOptions): Promise<FinanceImport> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/finance/imports', json: params });
  }

  /** Lists imports, newest first. */
  imports(params: { limit?: number } = {}, options?: CallOptions): CursorList<'imports', FinanceImport> {
    return new CursorList('imports', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: '/v1/finance/imports',
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /** Reads one import. @throws {NotFoundError} for an unknown id */
  getImport(id: string, options?: CallOptions): Promise<FinanceImport> {
    return this.http.request({ ...options, method: 'GET', path: `/v1/finance/imports/${enc(id)}` });
  }

  /** Lists transactions, newest first, filtered by dates (inclusive), category or text. */
  transactions(
    params: FinanceTransactionQuery = {},
    options?: CallOptions,
  ): CursorList<'transactions', FinanceTransaction> {
    return new CursorList('transactions', (cursor) =>
      this.http.request({ ...options, method: 'GET', path: '/v1/finance/transactions', query: { ...params, cursor } }),
    );
  }

  /** Reads one transaction. @throws {NotFoundError} for an unknown id */
  getTransaction(id: string, options?: CallOptions): Promise<FinanceTransaction> {
    return this.http.request({ ...options, method: 'GET', path: `/v1/finance/transactions/${enc(id)}` });
  }

  /** Edits a transaction's category, note or counterparty (`null` clears). @throws {NotFoundError} */
  updateTransaction(id: string, params: FinanceTransactionUpdate, options?: CallOptions): Promise<FinanceTransaction> {
    return this.http.request({
      ...options,
      method: 'PATCH',
      path: `/v1/finance/transactions/${enc(id)}`,
      json: params,
    });
  }

  /** Lists categories (the default chart and the workspace's own). */
  categories(params: { limit?: number } = {}, options?: CallOptions): CursorList<'categories', FinanceCategory> {
    return new CursorList('categories', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: '/v1/finance/categories',
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /** Adds a category. @throws {ConflictError} when the name is taken */
  createCategory(
    params: { name: string; kind: FinanceCategory['kind'] },
    options?: CallOptions,
  ): Promise<FinanceCategory> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/finance/categories', json: params });
  }

  /** Lists rules, newest first. */
  rules(params: { limit?: number } = {}, options?: CallOptions): CursorList<'rules', FinanceRule> {
    return new CursorList('rules', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: '/v1/finance/rules',
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /** Adds a rule. @throws {ValidationError} for a pattern the linear-time engine does not run */
  createRule(params: FinanceRuleParams, options?: CallOptions): Promise<FinanceRule> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/finance/rules', json: params });
  }

  /** Deletes a rule. @throws {NotFoundError} */
  async deleteRule(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: `/v1/finance/rules/${enc(id)}` });
  }

  /** Applies the rules to stored transactions (categories a person chose stay). */
  applyRules(params: { from?: string; to?: string } = {}, options?: CallOptions): Promise<FinanceApplyResult> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/finance/rules/apply', json: params });
  }

  /** Money in, out and net per category or month, per currency. */
  summary(
    params: { from?: string; to?: string; groupBy?: 'category' | 'month' } = {},
    options?: CallOptions,
  ): Promise<FinanceSummary> {
    return this.http.request({ ...options, method: 'GET', path: '/v1/finance/summary', query: params });
  }

  /** Downloads the transactions as CSV or XLSX bytes. */
  async export(
    params: { from?: string; to?: string; format?: 'csv' | 'xlsx' } = {},
    options?: CallOptions,
  ): Promise<Uint8Array> {
    const response = await this.http.raw({
      ...options,
      method: 'GET',
      path: '/v1/finance/export',
      query: params,
      headers: { accept: '*/*', ...options?.headers },
    });
    return new Uint8Array(await response.arrayBuffer());
  }

  /**
   * Starts a reconciliation run: the finance agent proposes matches of the transactions dated `from`..`to`
   * to the documents `fileIds`, waits at the run's approval gate, and reconciles what was approved. An
   * `approvalPolicy` (null removes it) becomes the finance agent's first; changing it needs `agents:write`.
   * @throws {ValidationError} for a file not in the workspace or a malformed policy
   * @throws {PermissionError} for a policy change by a caller who may not write agents
   */
  reconcile(
    params: { from: string; to: string; fileIds: string[]; approvalPolicy?: ApprovalPolicy | null },
    options?: CallOptions,
  ): Promise<Run> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/finance/reconciliations', json: params });
  }

  /** Starts a report run (`monthly`: a PDF, `cashflow`: an XLSX file in the library); the run's output is the report. */
  report(params: { from: string; to: string; kind: 'monthly' | 'cashflow' }, options?: CallOptions): Promise<Run> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/finance/reports', json: params });
  }
}
