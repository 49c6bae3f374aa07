import type { KnowledgeDocument } from '@svc/client';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, qs } from '../../api';
import { DataTable } from '../../components/DataTable';
import { Empty, QueryState } from '../../components/States';
import { when } from '../../components/format';
import { useAgents } from '../../hooks';
import { useSession } from '../../session';
import { AddDocument } from './AddDocument';
import { KnowledgeSearch } from './KnowledgeSearch';
import { useProjects } from './lookups';

/** `/knowledge?projectId=&agentId=`: search, add, and the documents list filtered by project or agent. */
export function KnowledgePage() {
  const { can } = useSession();
  const [params, setParams] = useSearchParams();
  const projectId = params.get('projectId') ?? '';
  const agentId = params.get('agentId') ?? '';
  const agents = useAgents();
  const projects = useProjects();
  const docs = useQuery({
    queryKey: ['knowledge', 'list', projectId, agentId],
    queryFn: () =>
      api<{ knowledge: KnowledgeDocument[]; nextCursor: string | null }>(
        `/v1/knowledge${qs({ projectId, agentId, limit: 100 })}`,
      ),
  });
  const setFilter = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next);
  };
  const projectName = (id: string | null) =>
    id ? (projects.data?.projects.find((p) => p.id === id)?.name ?? '—') : '—';
  return (
    <section>
      <h1>Knowledge</h1>
      <p className="muted">Documents the workspace's agents can search with the knowledge_search tool.</p>
      <KnowledgeSearch />
      {can('agents:write') ? <AddDocument /> : null}
      <h2>Documents</h2>
      <div className="filters" role="group" aria-label="Filter documents">
        <div className="field">
          <label htmlFor="filter-project">Filter by project</label>
          <select id="filter-project" value={projectId} onChange={(e) => setFilter('projectId', e.target.value)}>
            <option value="">Any project</option>
            {(projects.data?.projects ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-agent">Filter by agent</label>
          <select id="filter-agent" value={agentId} onChange={(e) => setFilter('agentId', e.target.value)}>
            <option value="">Any agent</option>
            {(agents.data?.agents ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <QueryState query={docs} what="documents">
        {(d) =>
          d.knowledge.length === 0 ? (
            <Empty>{projectId || agentId ? 'No document matches these filters.' : 'No documents yet.'}</Empty>
          ) : (
            <DataTable label="Documents" columns={['Title', 'Source', 'Characters', 'Agents', 'Project', 'Added']}>
              {d.knowledge.map((k) => (
                <tr key={k.id} data-testid="knowledge-document">
                  <td>
                    <Link to={`/knowledge/${k.id}`}>{k.title}</Link>
                  </td>
                  <td>
                    {k.source.type === 'file' ? 'file' : 'text'} ({k.source.format})
                  </td>
                  <td>{k.chars.toLocaleString()}</td>
                  <td>{k.agentIds.length}</td>
                  <td>{projectName(k.projectId)}</td>
                  <td>{when(k.createdAt)}</td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryState>
    </section>
  );
}
