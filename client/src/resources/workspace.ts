/** `client.workspace`: the workspace's members and their roles; giving roles is an owner's power (`keys:manage`). */
import type { CallOptions, HttpClient } from '../http.js';
import type { WorkspaceMember, WorkspaceRole } from '../workspace-types.js';

/** The workspace itself: its members' roles. */
export class Workspace {
  constructor(private readonly http: HttpClient) {}

  /**
   * Changes the role of a member of the workspace; the same role again changes nothing.
   * @throws {NotFoundError} for a user who is not a member of the workspace
   * @throws {ConflictError} when it would take the role of the workspace's last owner
   * @throws {PermissionError} for a key without `keys:manage`
   */
  setMember(userId: string, params: { role: WorkspaceRole }, options?: CallOptions): Promise<WorkspaceMember> {
    return this.http.request({
      ...options,
      method: 'PATCH',
      path: `/v1/workspace/members/${encodeURIComponent(userId)}`,
      json: params,
    });
  }
}
