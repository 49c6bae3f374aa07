import type { Project } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../api';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { MutationStatus } from '../../components/MutationStatus';
import { ErrorBox, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { useSession } from '../../session';
import { Members } from './Members';
import { ProjectAgents } from './ProjectAgents';

/** `/projects/:id`: the project, its members and roles, its agents. */
export function ProjectPage() {
  const { id = '' } = useParams();
  const { can } = useSession();
  const project = useQuery({ queryKey: ['projects', id], queryFn: () => api<Project>(`/v1/projects/${id}`) });
  return (
    <section>
      <p>
        <Link to="/projects">← All projects</Link>
      </p>
      <QueryState query={project} what="the project">
        {(p) => (
          <>
            <h1 className="wrap">{p.name}</h1>
            <p className="muted wrap">
              {p.description ?? 'No description.'} · created {when(p.createdAt)} ·{' '}
              <Link to={`/knowledge?projectId=${p.id}`}>its knowledge</Link>
            </p>
            {can('agents:write') ? <EditProject key={p.updatedAt} project={p} /> : null}
            <Members projectId={p.id} />
            <ProjectAgents projectId={p.id} />
          </>
        )}
      </QueryState>
    </section>
  );
}

function EditProject({ project }: { project: Project }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description ?? '');
  const save = useMutation({
    mutationFn: () =>
      api<Project>(`/v1/projects/${project.id}`, {
        method: 'PATCH',
        json: { name: name.trim(), description: description.trim() ? description.trim() : null },
      }),
    onSuccess: (p) => {
      client.setQueryData(['projects', project.id], p);
      void client.invalidateQueries({ queryKey: ['projects', 'all'] });
    },
  });
  const remove = useMutation({
    mutationFn: () => api(`/v1/projects/${project.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['projects'] });
      void client.invalidateQueries({ queryKey: ['agents'] });
      navigate('/projects');
    },
  });
  return (
    <details className="panel">
      <summary>Edit or delete the project</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <div className="field">
          <label htmlFor="project-edit-name">Name</label>
          <input
            id="project-edit-name"
            required
            maxLength={200}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="project-edit-description">Description</label>
          <textarea
            id="project-edit-description"
            rows={2}
            maxLength={10_000}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
        <MutationStatus mutation={save} failed="Could not save" done="Saved." />
        <div className="actions">
          <button className="primary" type="submit" disabled={save.isPending || !name.trim()}>
            Save
          </button>
          <ConfirmDelete
            confirmLabel="Yes, delete the project (its agents stay, without a project)"
            pending={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </div>
        <ErrorBox error={remove.error} title="Could not delete" />
      </form>
    </details>
  );
}
