import type { Project } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api';
import { DataTable } from '../../components/DataTable';
import { Empty, ErrorBox, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { useSession } from '../../session';

/** `/projects`: the workspace's projects, newest first, and a new one. */
export function ProjectsPage() {
  const { can } = useSession();
  const projects = useQuery({
    queryKey: ['projects', 'all'],
    queryFn: () => api<{ projects: Project[]; nextCursor: string | null }>('/v1/projects?limit=100'),
  });
  return (
    <section>
      <h1>Projects</h1>
      <p className="muted">A project groups agents, knowledge and flows, and records who works on it.</p>
      {can('agents:write') ? <CreateProject /> : null}
      <QueryState query={projects} what="projects">
        {(d) =>
          d.projects.length === 0 ? (
            <Empty>No projects yet.</Empty>
          ) : (
            <DataTable label="Projects" columns={['Name', 'Description', 'Created']}>
              {d.projects.map((p) => (
                <tr key={p.id}>
                  <td>
                    <Link to={`/projects/${p.id}`}>{p.name}</Link>
                  </td>
                  <td className="wrap">{p.description ?? '—'}</td>
                  <td>{when(p.createdAt)}</td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryState>
    </section>
  );
}

function CreateProject() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api<Project>('/v1/projects', {
        method: 'POST',
        json: { name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) },
      }),
    onSuccess: (p) => {
      void client.invalidateQueries({ queryKey: ['projects'] });
      navigate(`/projects/${p.id}`);
    },
  });
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2>New project</h2>
      <div className="field">
        <label htmlFor="project-name">Name</label>
        <input id="project-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="project-description">Description (optional)</label>
        <textarea
          id="project-description"
          rows={2}
          maxLength={10_000}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <ErrorBox error={create.error} title="Could not create the project" />
      <button className="primary" type="submit" disabled={create.isPending || !name.trim()}>
        Create the project
      </button>
    </form>
  );
}
