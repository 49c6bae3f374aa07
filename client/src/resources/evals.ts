/** `client.evals`: evals of agents and their runs (`agents:read` reads, `agents:write` creates and runs). */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type { Eval, EvalCreateParams, EvalRun } from '../eval-types.js';

const path = (id: string) => `/v1/evals/${encodeURIComponent(id)}`;

/** Evals: cases an agent is scored against, each eval run a set of real, charged runs. */
export class Evals {
  constructor(private readonly http: HttpClient) {}

  /**
   * Creates an eval of an agent (1 to 100 cases).
   * @throws {NotFoundError} for an unknown agent; {@link ValidationError} for a bad case or over 100 cases
   */
  create(agentId: string, params: EvalCreateParams, options?: CallOptions): Promise<Eval> {
    return this.http.request({
      ...options,
      method: 'POST',
      path: `/v1/agents/${encodeURIComponent(agentId)}/evals`,
      json: params,
    });
  }

  /**
   * Lists an agent's evals, newest first, as a lazily fetched {@link CursorList}.
   * @throws {NotFoundError} on iteration, for an unknown agent
   */
  list(agentId: string, params: { limit?: number } = {}, options?: CallOptions): CursorList<'evals', Eval> {
    return new CursorList('evals', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: `/v1/agents/${encodeURIComponent(agentId)}/evals`,
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /**
   * Reads one eval.
   * @throws {NotFoundError} for an unknown id
   */
  get(id: string, options?: CallOptions): Promise<Eval> {
    return this.http.request({ ...options, method: 'GET', path: path(id) });
  }

  /**
   * Deletes an eval and its runs (their case runs stay).
   * @throws {NotFoundError} for an unknown id
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: path(id) });
  }

  /**
   * Runs an eval against a version of its agent (the current one when `version` is absent); answers at once
   * with the queued eval run.
   * @throws {NotFoundError} for an unknown eval; {@link ValidationError} for a version the agent lacks
   */
  run(id: string, params: { version?: number } = {}, options?: CallOptions): Promise<EvalRun> {
    return this.http.request({ ...options, method: 'POST', path: `${path(id)}/runs`, json: params });
  }

  /**
   * Lists an eval's runs, newest first, as a lazily fetched {@link CursorList}.
   * @throws {NotFoundError} on iteration, for an unknown eval
   */
  runs(id: string, params: { limit?: number } = {}, options?: CallOptions): CursorList<'evalRuns', EvalRun> {
    return new CursorList('evalRuns', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: `${path(id)}/runs`,
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /**
   * Reads one eval run with its scored cases.
   * @throws {NotFoundError} for an unknown id
   */
  getRun(id: string, options?: CallOptions): Promise<EvalRun> {
    return this.http.request({ ...options, method: 'GET', path: `/v1/eval-runs/${encodeURIComponent(id)}` });
  }
}
