/** `client.savedTables`: reads of data sources kept as tables, refreshed by hand or on a cron. */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type { SavedTable, SavedTableCreateParams, SavedTableRows } from '../data-source-types.js';

const path = (id: string) => `/v1/saved-tables/${encodeURIComponent(id)}`;

/** Saved tables of the workspace. */
export class SavedTables {
  constructor(private readonly http: HttpClient) {}

  /**
   * Saves a read of a data source as a table; its first refresh starts at once.
   * @throws {ValidationError} for an unknown data source, an invalid read or cron
   */
  create(params: SavedTableCreateParams, options?: CallOptions): Promise<SavedTable> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/saved-tables', json: params });
  }

  /**
   * Lists saved tables, newest first, as a lazily fetched {@link CursorList}.
   * @throws {SvcError} on iteration, when a page request fails
   */
  list(params: { limit?: number } = {}, options?: CallOptions): CursorList<'savedTables', SavedTable> {
    return new CursorList('savedTables', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: '/v1/saved-tables',
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /** @throws {NotFoundError} for an unknown id */
  get(id: string, options?: CallOptions): Promise<SavedTable> {
    return this.http.request({ ...options, method: 'GET', path: path(id) });
  }

  /** One page of rows (`cursor` from the previous page's `nextCursor`). @throws {NotFoundError} for an unknown id */
  rows(id: string, params: { limit?: number; cursor?: string } = {}, options?: CallOptions): Promise<SavedTableRows> {
    return this.http.request({ ...options, method: 'GET', path: `${path(id)}/rows`, query: params });
  }

  /** Starts a refresh (202); the outcome shows on {@link SavedTables.get}. @throws {NotFoundError} for an unknown id */
  refresh(id: string, options?: CallOptions): Promise<SavedTable> {
    return this.http.request({ ...options, method: 'POST', path: `${path(id)}/refresh` });
  }

  /** Deletes a saved table, its rows and its schedule. @throws {NotFoundError} for an unknown id */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: path(id) });
  }
}
