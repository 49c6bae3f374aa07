/** `client.audit`: the workspace's audit log; an API key needs `keys:manage`. */
import type { AuditEntry, AuditFilter } from '../audit-types.js';
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';

/** The audit log of sensitive writes: who did what, from where, in a hash chain. */
export class Audit {
  constructor(private readonly http: HttpClient) {}

  /**
   * Lists entries, newest first, as a lazily fetched {@link CursorList}.
   * @throws {PermissionError} on iteration, for a key without `keys:manage`
   * @throws {ValidationError} on iteration, for a malformed filter
   */
  list(params: AuditFilter & { limit?: number } = {}, options?: CallOptions): CursorList<'entries', AuditEntry> {
    return new CursorList('entries', (cursor) =>
      this.http.request({ ...options, method: 'GET', path: '/v1/audit', query: { ...params, cursor } }),
    );
  }

  /** Every matching entry as CSV text (formula-safe cells), newest first. */
  async export(params: AuditFilter = {}, options?: CallOptions): Promise<string> {
    const response = await this.http.raw({
      ...options,
      method: 'GET',
      path: '/v1/audit/export',
      query: { ...params },
      headers: { accept: 'text/csv', ...options?.headers },
    });
    return response.text();
  }
}
