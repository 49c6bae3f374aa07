/** `client.flows`: flows, their templates, manual runs and webhook tokens (scopes `flows:read` / `flows:manage`). */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type { Flow, FlowCreateParams, FlowRun, FlowTemplate, FlowUpdateParams } from '../flow-types.js';

const path = (id: string) => `/v1/flows/${encodeURIComponent(id)}`;

/** Flows of the workspace. */
export class Flows {
  constructor(private readonly http: HttpClient) {}

  /**
   * Creates a flow from a definition or a template; a webhook flow's `webhookUrl` is shown here once.
   * @throws {ValidationError} naming the path of each problem of the definition
   */
  create(params: FlowCreateParams, options?: CallOptions): Promise<Flow> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/flows', json: params });
  }

  /**
   * Lists flows, newest first, optionally of one project, as a lazily fetched {@link CursorList}.
   * @throws {SvcError} on iteration, when a page request fails
   */
  list(params: { limit?: number; projectId?: string } = {}, options?: CallOptions): CursorList<'flows', Flow> {
    return new CursorList('flows', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: '/v1/flows',
        query: { limit: params.limit, projectId: params.projectId, cursor },
      }),
    );
  }

  /**
   * Reads one flow.
   * @throws {NotFoundError} for an unknown id
   */
  get(id: string, options?: CallOptions): Promise<Flow> {
    return this.http.request({ ...options, method: 'GET', path: path(id) });
  }

  /**
   * Changes a flow (`status: 'paused'` pauses it and its schedule).
   * @throws {NotFoundError} for an unknown id; {@link ValidationError} for an invalid change
   */
  update(id: string, params: FlowUpdateParams, options?: CallOptions): Promise<Flow> {
    return this.http.request({ ...options, method: 'PATCH', path: path(id), json: params });
  }

  /**
   * Deletes a flow, its runs and its schedule; unfinished runs are cancelled.
   * @throws {NotFoundError} for an unknown id
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: path(id) });
  }

  /** The built-in flow templates. */
  async templates(options?: CallOptions): Promise<FlowTemplate[]> {
    const page = await this.http.request<{ templates: FlowTemplate[] }>({
      ...options,
      method: 'GET',
      path: '/v1/flow-templates',
    });
    return page.templates;
  }

  /**
   * Runs a flow now; `input` is what `{{trigger.<path>}}` reads.
   * @throws {NotFoundError} for an unknown flow; {@link ConflictError} for a paused one
   */
  run(id: string, params: { input?: Record<string, unknown> } = {}, options?: CallOptions): Promise<FlowRun> {
    return this.http.request({ ...options, method: 'POST', path: `${path(id)}/run`, json: params });
  }

  /**
   * Makes a new webhook token (the previous one stops working at once) and returns its URL, shown once.
   * @throws {NotFoundError} for an unknown flow; {@link ConflictError} when its trigger is not a webhook
   */
  regenerateWebhookToken(id: string, options?: CallOptions): Promise<{ webhookUrl: string }> {
    return this.http.request({ ...options, method: 'POST', path: `${path(id)}/webhook-token` });
  }
}
