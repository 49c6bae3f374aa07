/** `client.search`: one query over the workspace; needs `runs:read`. */
import type { CallOptions, HttpClient } from '../http.js';
import type { SearchResult, SearchType } from '../knowledge-types.js';

/** Workspace search over runs, agents, files, knowledge and flows. */
export class Search {
  constructor(private readonly http: HttpClient) {}

  /**
   * Searches the workspace; each type appears only where the key's scopes may read it (`runs:read` for
   * runs, `agents:read` for agents and knowledge, `files:read` for files). At most `limit` results (20).
   * @throws {ValidationError} for a blank query or an unknown type; {@link PermissionError} without `runs:read`
   */
  async query(
    params: { q: string; types?: SearchType[]; limit?: number },
    options?: CallOptions,
  ): Promise<SearchResult[]> {
    const res = await this.http.request<{ results: SearchResult[] }>({
      ...options,
      method: 'GET',
      path: '/v1/search',
      query: { q: params.q, types: params.types?.join(','), limit: params.limit },
    });
    return res.results;
  }
}
