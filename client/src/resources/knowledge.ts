/** `client.knowledge`: knowledge documents and their full-text search; `agents:read` reads, `agents:write` changes. */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type {
  KnowledgeCreateParams,
  KnowledgeDocument,
  KnowledgeSearchResult,
  KnowledgeUpdateParams,
} from '../knowledge-types.js';

/** Knowledge documents of the workspace, which agents search with the `knowledge_search` tool. */
export class Knowledge {
  constructor(private readonly http: HttpClient) {}

  /**
   * Creates a document from `text`, or from the library file `fileId` (text, markdown, csv, json or html).
   * @throws {ValidationError} for an unknown agent or file, a file of another format, text over the limit
   */
  create(params: KnowledgeCreateParams, options?: CallOptions): Promise<KnowledgeDocument> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/knowledge', json: params });
  }

  /**
   * Lists documents (without their text), newest first, as a lazily fetched {@link CursorList}.
   * @throws {SvcError} on iteration, when a page request fails
   */
  list(
    params: { projectId?: string; agentId?: string; limit?: number } = {},
    options?: CallOptions,
  ): CursorList<'knowledge', KnowledgeDocument> {
    return new CursorList('knowledge', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: '/v1/knowledge',
        query: { projectId: params.projectId, agentId: params.agentId, limit: params.limit, cursor },
      }),
    );
  }

  /**
   * Reads one document with its text.
   * @throws {NotFoundError} for an unknown id
   */
  get(id: string, options?: CallOptions): Promise<KnowledgeDocument> {
    return this.http.request({ ...options, method: 'GET', path: `/v1/knowledge/${encodeURIComponent(id)}` });
  }

  /**
   * Changes the title, text, linked agents or project.
   * @throws {NotFoundError} for an unknown id; {@link ValidationError} for an invalid change
   */
  update(id: string, params: KnowledgeUpdateParams, options?: CallOptions): Promise<KnowledgeDocument> {
    return this.http.request({
      ...options,
      method: 'PATCH',
      path: `/v1/knowledge/${encodeURIComponent(id)}`,
      json: params,
    });
  }

  /**
   * Deletes a document.
   * @throws {NotFoundError} for an unknown id
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: `/v1/knowledge/${encodeURIComponent(id)}` });
  }

  /**
   * Full-text search (web-search syntax: words, "phrases", `or`, `-word`), best first; only documents
   * linked to `agentId` when given.
   * @throws {ValidationError} for a blank or overlong query
   */
  async search(
    params: { q: string; agentId?: string; limit?: number },
    options?: CallOptions,
  ): Promise<KnowledgeSearchResult[]> {
    const res = await this.http.request<{ results: KnowledgeSearchResult[] }>({
      ...options,
      method: 'GET',
      path: '/v1/knowledge/search',
      query: { q: params.q, agentId: params.agentId, limit: params.limit },
    });
    return res.results;
  }
}
