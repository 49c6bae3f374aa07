/** `client.agents`: agent definitions, their versions and the catalogues (presets, models, tools). */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type { Model, Preset, Tool } from '../catalog-types.js';
import type { AgentDefinition } from '../local-run-types.js';
import type { Agent, AgentCreateParams, AgentVersion } from '../types.js';

/** Agents of the workspace. */
export class Agents {
  constructor(private readonly http: HttpClient) {}

  /**
   * Lists agents, newest first (only one project's with `projectId`), as a lazily fetched {@link CursorList}.
   * @throws {SvcError} on iteration, when a page request fails
   */
  list(params: { limit?: number; projectId?: string } = {}, options?: CallOptions): CursorList<'agents', Agent> {
    return new CursorList('agents', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: '/v1/agents',
        query: { limit: params.limit, projectId: params.projectId, cursor },
      }),
    );
  }

  /**
   * Creates an agent (version 1); unset fields come from the preset.
   * @throws {ValidationError} for an invalid definition
   */
  create(params: AgentCreateParams, options?: CallOptions): Promise<Agent> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/agents', json: params });
  }

  /**
   * Reads one agent.
   * @throws {NotFoundError} for an unknown id
   */
  get(id: string, options?: CallOptions): Promise<Agent> {
    return this.http.request({ ...options, method: 'GET', path: `/v1/agents/${encodeURIComponent(id)}` });
  }

  /**
   * Changes an agent; definition changes create a new immutable version.
   * @throws {NotFoundError} for an unknown id; {@link ValidationError} for an invalid change
   */
  update(id: string, params: Partial<AgentCreateParams>, options?: CallOptions): Promise<Agent> {
    return this.http.request({
      ...options,
      method: 'PATCH',
      path: `/v1/agents/${encodeURIComponent(id)}`,
      json: params,
    });
  }

  /**
   * Deletes an agent.
   * @throws {NotFoundError} for an unknown id
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: `/v1/agents/${encodeURIComponent(id)}` });
  }

  /**
   * Lists an agent's versions, newest first, as a lazily fetched {@link CursorList}.
   * @throws {NotFoundError} on iteration, for an unknown agent
   */
  versions(id: string, params: { limit?: number } = {}, options?: CallOptions): CursorList<'versions', AgentVersion> {
    return new CursorList('versions', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: `/v1/agents/${encodeURIComponent(id)}/versions`,
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /**
   * Reads version `n` of an agent.
   * @throws {NotFoundError} for an unknown agent or version
   */
  getVersion(id: string, n: number, options?: CallOptions): Promise<AgentVersion> {
    return this.http.request({
      ...options,
      method: 'GET',
      path: `/v1/agents/${encodeURIComponent(id)}/versions/${encodeURIComponent(String(n))}`,
    });
  }

  /**
   * Makes a new version equal to version `n` and returns the agent at that new version.
   * @throws {NotFoundError} for an unknown agent or version; {@link ValidationError} when the version names a
   * model or tool that no longer exists
   */
  restoreVersion(id: string, n: number, options?: CallOptions): Promise<Agent> {
    return this.http.request({
      ...options,
      method: 'POST',
      path: `/v1/agents/${encodeURIComponent(id)}/versions/${encodeURIComponent(String(n))}/restore`,
    });
  }

  /**
   * The agent's current definition, as a local runner needs it; `instructions` and `savedReads` only for a key that
   * also holds `runner:run`.
   * @throws {NotFoundError} for an unknown id
   */
  definition(id: string, options?: CallOptions): Promise<AgentDefinition> {
    return this.http.request({ ...options, method: 'GET', path: `/v1/agents/${encodeURIComponent(id)}/definition` });
  }

  /** The built-in presets `create` may name as `presetId`, with the defaults each gives. */
  async presets(options?: CallOptions): Promise<Preset[]> {
    const body = await this.http.request<{ presets: Preset[] }>({ ...options, method: 'GET', path: '/v1/presets' });
    return body.presets;
  }

  /** The models an agent may name as `modelId`, with their prices. */
  async models(options?: CallOptions): Promise<Model[]> {
    const body = await this.http.request<{ models: Model[] }>({ ...options, method: 'GET', path: '/v1/models' });
    return body.models;
  }

  /** The tools an agent may list in `tools`, with the JSON Schema of their arguments. */
  async tools(options?: CallOptions): Promise<Tool[]> {
    const body = await this.http.request<{ tools: Tool[] }>({ ...options, method: 'GET', path: '/v1/tools' });
    return body.tools;
  }
}
