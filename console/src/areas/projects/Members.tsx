import type { ProjectMember, ProjectRole } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api';
import { Empty, ErrorBox, QueryState } from '../../components/States';
import { shortId, when } from '../../components/format';
import { useSession } from '../../session';

const ROLES: ProjectRole[] = ['viewer', 'editor'];

/**
 * A project's members and their roles. The role is recorded for people (who works on what); what anyone may
 * do is still their workspace role's (docs/api/projects.md).
 */
export function Members({ projectId }: { projectId: string }) {
  const { can, me } = useSession();
  const client = useQueryClient();
  const members = useQuery({
    queryKey: ['projects', projectId, 'members'],
    queryFn: () => api<{ members: ProjectMember[] }>(`/v1/projects/${projectId}/members?limit=100`),
  });
  const settle = () => client.invalidateQueries({ queryKey: ['projects', projectId, 'members'] });
  const put = useMutation({
    mutationFn: (m: { userId: string; role: ProjectRole }) =>
      api<ProjectMember>(`/v1/projects/${projectId}/members/${m.userId}`, { method: 'PUT', json: { role: m.role } }),
    onSuccess: settle,
  });
  const remove = useMutation({
    mutationFn: (userId: string) => api(`/v1/projects/${projectId}/members/${userId}`, { method: 'DELETE' }),
    onSuccess: settle,
  });
  const who = (userId: string) =>
    userId === me.user.id ? `${me.user.name ?? me.user.email} (you)` : `user ${shortId(userId)}`;
  const writable = can('agents:write');
  return (
    <>
      <h2>Members</h2>
      {writable ? <AddMember onAdd={(m) => put.mutate(m)} pending={put.isPending} /> : null}
      <ErrorBox error={put.error} title="Could not save the member" />
      <ErrorBox error={remove.error} title="Could not remove the member" />
      <QueryState query={members} what="members">
        {(d) =>
          d.members.length === 0 ? (
            <Empty>No members yet.</Empty>
          ) : (
            <div className="table-wrap" role="region" aria-label="Members" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Member</th>
                    <th scope="col">Role</th>
                    <th scope="col">Since</th>
                    {writable ? (
                      <th scope="col">
                        <span className="sr-only">Actions</span>
                      </th>
                    ) : null}
                  </tr>
                </thead>
                <tbody>
                  {d.members.map((m) => (
                    <tr key={m.userId} data-testid="project-member">
                      <td>
                        {who(m.userId)}
                        <div className="small muted">
                          <code className="wrap">{m.userId}</code>
                        </div>
                      </td>
                      <td>
                        {writable ? (
                          <select
                            aria-label={`Role of ${who(m.userId)}`}
                            value={m.role}
                            disabled={put.isPending}
                            onChange={(e) => put.mutate({ userId: m.userId, role: e.target.value as ProjectRole })}
                          >
                            {ROLES.map((r) => (
                              <option key={r} value={r}>
                                {r}
                              </option>
                            ))}
                          </select>
                        ) : (
                          m.role
                        )}
                      </td>
                      <td>{when(m.createdAt)}</td>
                      {writable ? (
                        <td>
                          <button
                            type="button"
                            className="danger"
                            disabled={remove.isPending}
                            onClick={() => remove.mutate(m.userId)}
                          >
                            Remove<span className="sr-only"> {who(m.userId)}</span>
                          </button>
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryState>
    </>
  );
}

/**
 * Adds a workspace user by id (the service has no list of a workspace's users to pick from); the signed-in
 * user can add themselves in one step.
 */
function AddMember({
  onAdd,
  pending,
}: {
  onAdd: (m: { userId: string; role: ProjectRole }) => void;
  pending: boolean;
}) {
  const { me } = useSession();
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState<ProjectRole>('editor');
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        onAdd({ userId: userId.trim(), role });
      }}
    >
      <div className="row">
        <div className="field">
          <label htmlFor="member-user">User id (a member of this workspace)</label>
          <input
            id="member-user"
            className="code"
            required
            value={userId}
            onChange={(e) => setUserId(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="member-role">Project role</label>
          <select id="member-role" value={role} onChange={(e) => setRole(e.target.value as ProjectRole)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="actions">
        <button className="primary" type="submit" disabled={pending || !userId.trim()}>
          Add or change the member
        </button>
        <button type="button" disabled={pending} onClick={() => onAdd({ userId: me.user.id, role })}>
          Add yourself as {role}
        </button>
      </div>
    </form>
  );
}
