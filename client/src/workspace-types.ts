/** A person's role in the workspace: what their session may do (docs/api/identity.md). */
export type WorkspaceRole = 'owner' | 'admin' | 'member';

/** A member of the workspace, as `workspace.setMember` answers. */
export interface WorkspaceMember {
  userId: string;
  email: string;
  name: string | null;
  role: WorkspaceRole;
}
