/** `client.projects`: projects that group agents, and their members (scopes `agents:read` / `agents:write`). */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type { Project, ProjectCreateParams, ProjectMember, ProjectRole } from '../types.js';

const path = (id: string) => `/v1/projects/${encodeURIComponent(id)}`;

/** Projects of the workspace. */
export class Projects {
  constructor(private readonly http: HttpClient) {}

  /**
   * Creates a project.
   * @throws {ValidationError} for an empty or too long name
   */
  create(params: ProjectCreateParams, options?: CallOptions): Promise<Project> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/projects', json: params });
  }

  /**
   * Lists projects, newest first, as a lazily fetched {@link CursorList}.
   * @throws {SvcError} on iteration, when a page request fails
   */
  list(params: { limit?: number } = {}, options?: CallOptions): CursorList<'projects', Project> {
    return new CursorList('projects', (cursor) =>
      this.http.request({ ...options, method: 'GET', path: '/v1/projects', query: { limit: params.limit, cursor } }),
    );
  }

  /**
   * Reads one project.
   * @throws {NotFoundError} for an unknown id
   */
  get(id: string, options?: CallOptions): Promise<Project> {
    return this.http.request({ ...options, method: 'GET', path: path(id) });
  }

  /**
   * Renames a project or changes its description (`null` clears it).
   * @throws {NotFoundError} for an unknown id; {@link ValidationError} for an invalid change
   */
  update(id: string, params: Partial<ProjectCreateParams>, options?: CallOptions): Promise<Project> {
    return this.http.request({ ...options, method: 'PATCH', path: path(id), json: params });
  }

  /**
   * Deletes a project and its member list; its agents stay, without a project.
   * @throws {NotFoundError} for an unknown id
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: path(id) });
  }

  /**
   * Lists a project's members, newest first, as a lazily fetched {@link CursorList}.
   * @throws {NotFoundError} on iteration, for an unknown project
   */
  members(id: string, params: { limit?: number } = {}, options?: CallOptions): CursorList<'members', ProjectMember> {
    return new CursorList('members', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: `${path(id)}/members`,
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /**
   * Adds a user of the workspace to the project with a role, or changes their role.
   * @throws {NotFoundError} for an unknown project, or a user who is not a member of the workspace
   */
  setMember(id: string, userId: string, params: { role: ProjectRole }, options?: CallOptions): Promise<ProjectMember> {
    return this.http.request({
      ...options,
      method: 'PUT',
      path: `${path(id)}/members/${encodeURIComponent(userId)}`,
      json: params,
    });
  }

  /**
   * Removes a user from the project.
   * @throws {NotFoundError} for an unknown project or a user who is not in it
   */
  async removeMember(id: string, userId: string, options?: CallOptions): Promise<void> {
    await this.http.request({
      ...options,
      method: 'DELETE',
      path: `${path(id)}/members/${encodeURIComponent(userId)}`,
    });
  }
}
