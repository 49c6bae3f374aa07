import type { KnowledgeDocument } from '@svc/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../api';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { MutationStatus } from '../../components/MutationStatus';
import { ErrorBox, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { useAgentNames } from '../../hooks';
import { useSession } from '../../session';
import { LinkFields } from './LinkFields';
import { useProjects } from './lookups';

/** `/knowledge/:id`: one document with its text; its title, text and links changed, or it deleted. */
export function DocumentPage() {
  const { id = '' } = useParams();
  const { can } = useSession();
  const doc = useQuery({
    queryKey: ['knowledge', 'doc', id],
    queryFn: () => api<KnowledgeDocument>(`/v1/knowledge/${id}`),
  });
  const agentName = useAgentNames();
  const projects = useProjects();
  return (
    <section>
      <p>
        <Link to="/knowledge">← All documents</Link>
      </p>
      <QueryState query={doc} what="the document">
        {(d) => (
          <>
            <h1 className="wrap">{d.title}</h1>
            <dl className="facts">
              <dt>Source</dt>
              <dd>
                {d.source.type === 'file' ? 'a library file' : 'text'} ({d.source.format})
              </dd>
              <dt>Characters</dt>
              <dd>{d.chars.toLocaleString()}</dd>
              <dt>Project</dt>
              <dd>
                {d.projectId ? (
                  <Link to={`/projects/${d.projectId}`}>
                    {projects.data?.projects.find((p) => p.id === d.projectId)?.name ?? 'its project'}
                  </Link>
                ) : (
                  'none'
                )}
              </dd>
              <dt>Agents</dt>
              <dd>{d.agentIds.length ? d.agentIds.map(agentName).join(', ') : 'none'}</dd>
              <dt>Updated</dt>
              <dd>{when(d.updatedAt)}</dd>
            </dl>
            {can('agents:write') ? (
              <EditDocument key={d.updatedAt} doc={d} />
            ) : (
              <>
                <h2>Text</h2>
                <pre className="json">{d.text}</pre>
              </>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

function EditDocument({ doc }: { doc: KnowledgeDocument }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [title, setTitle] = useState(doc.title);
  const [text, setText] = useState(doc.text ?? '');
  const [projectId, setProjectId] = useState(doc.projectId ?? '');
  const [agentIds, setAgentIds] = useState(doc.agentIds);
  const save = useMutation({
    mutationFn: () =>
      api<KnowledgeDocument>(`/v1/knowledge/${doc.id}`, {
        method: 'PATCH',
        // only what changed: replacing the text makes a file's document a text one, and the agent ids
        // may still name an agent deleted since, which the service refuses when sent again
        json: {
          title: title.trim(),
          ...(sameSet(agentIds, doc.agentIds) ? {} : { agentIds }),
          ...((projectId || null) !== doc.projectId ? { projectId: projectId || null } : {}),
          ...(text !== doc.text ? { text } : {}),
        },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['knowledge'] }),
  });
  const remove = useMutation({
    mutationFn: () => api(`/v1/knowledge/${doc.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['knowledge'] });
      navigate('/knowledge');
    },
  });
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <h2>Edit</h2>
      <div className="field">
        <label htmlFor="doc-edit-title">Title</label>
        <input id="doc-edit-title" required maxLength={255} value={title} onChange={(e) => setTitle(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="doc-edit-text">Text</label>
        <textarea
          id="doc-edit-text"
          className="code"
          rows={12}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      <LinkFields projectId={projectId} agentIds={agentIds} onProject={setProjectId} onAgents={setAgentIds} />
      <MutationStatus mutation={save} failed="Could not save" done="Saved." />
      <div className="actions">
        <button className="primary" type="submit" disabled={save.isPending || !title.trim()}>
          Save
        </button>
        <ConfirmDelete
          confirmLabel="Yes, delete the document"
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
      <ErrorBox error={remove.error} title="Could not delete" />
    </form>
  );
}
