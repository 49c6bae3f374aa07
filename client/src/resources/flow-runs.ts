/** `client.flowRuns`: runs of flows (scopes `flows:read` / `flows:manage`). */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type { FlowRun, FlowRunStatus } from '../flow-types.js';

const path = (id: string) => `/v1/flow-runs/${encodeURIComponent(id)}`;

/** Flow runs: list a flow's or the workspace's, read one, answer its approval, cancel it. */
export class FlowRuns {
  constructor(private readonly http: HttpClient) {}

  /**
   * Lists a flow's runs, newest first, as a lazily fetched {@link CursorList}.
   * @throws {NotFoundError} on iteration, for an unknown flow
   */
  list(flowId: string, params: { limit?: number } = {}, options?: CallOptions): CursorList<'flowRuns', FlowRun> {
    return new CursorList('flowRuns', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: `/v1/flows/${encodeURIComponent(flowId)}/runs`,
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /**
   * Lists the workspace's flow runs across all its flows, newest first, optionally of one `status`
   * (`waiting_approval`: the approvals waiting for a person), as a lazily fetched {@link CursorList}.
   */
  listAll(
    params: { status?: FlowRunStatus; limit?: number } = {},
    options?: CallOptions,
  ): CursorList<'flowRuns', FlowRun> {
    return new CursorList('flowRuns', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: '/v1/flow-runs',
        query: { status: params.status, limit: params.limit, cursor },
      }),
    );
  }

  /**
   * Reads one flow run with its steps.
   * @throws {NotFoundError} for an unknown id
   */
  get(id: string, options?: CallOptions): Promise<FlowRun> {
    return this.http.request({ ...options, method: 'GET', path: path(id) });
  }

  /**
   * Answers the approval step the flow run waits for; `approved: false` fails the flow run.
   * @throws {ConflictError} (`run.invalid_state`) when it is not waiting for an approval
   */
  approve(id: string, params: { approved: boolean; comment?: string }, options?: CallOptions): Promise<FlowRun> {
    return this.http.request({ ...options, method: 'POST', path: `${path(id)}/approval`, json: params });
  }

  /**
   * Cancels a flow run that has not finished, and its agent run.
   * @throws {ConflictError} (`run.invalid_state`) when it has finished
   */
  cancel(id: string, options?: CallOptions): Promise<FlowRun> {
    return this.http.request({ ...options, method: 'POST', path: `${path(id)}/cancel` });
  }
}
