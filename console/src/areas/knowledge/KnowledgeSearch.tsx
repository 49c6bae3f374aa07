import type { KnowledgeSearchResult } from '@svc/client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, qs } from '../../api';
import { Empty, QueryState } from '../../components/States';
import { useAgents } from '../../hooks';
import { Snippet } from './Snippet';

/** Full-text search over the documents, optionally only those an agent may search, with highlighted snippets. */
export function KnowledgeSearch() {
  const agents = useAgents();
  const [q, setQ] = useState('');
  const [agentId, setAgentId] = useState('');
  const [asked, setAsked] = useState<{ q: string; agentId: string } | null>(null);
  const results = useQuery({
    queryKey: ['knowledge', 'search', asked],
    queryFn: () =>
      api<{ results: KnowledgeSearchResult[] }>(
        `/v1/knowledge/search${qs({ q: asked!.q, agentId: asked!.agentId, limit: 20 })}`,
      ),
    enabled: asked !== null,
  });
  return (
    <div className="panel">
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          if (q.trim()) setAsked({ q: q.trim(), agentId });
        }}
      >
        <h2>Search</h2>
        <div className="row">
          <div className="field">
            <label htmlFor="knowledge-q">Words or "a phrase"</label>
            <input id="knowledge-q" type="search" maxLength={500} value={q} onChange={(e) => setQ(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="knowledge-agent">Only documents of agent</label>
            <select id="knowledge-agent" value={agentId} onChange={(e) => setAgentId(e.target.value)}>
              <option value="">Any agent</option>
              {(agents.data?.agents ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <button className="primary" type="submit" disabled={!q.trim()}>
              Search
            </button>
          </div>
        </div>
      </form>
      {asked ? (
        <QueryState query={results} what="search results">
          {(d) =>
            d.results.length === 0 ? (
              <Empty>Nothing matches “{asked.q}”.</Empty>
            ) : (
              <ol className="list" aria-label="Search results">
                {d.results.map((r) => (
                  <li key={r.documentId} data-testid="knowledge-result">
                    <Link to={`/knowledge/${r.documentId}`}>{r.title}</Link>
                    <div className="small wrap">
                      <Snippet snippet={r.snippet} />
                    </div>
                  </li>
                ))}
              </ol>
            )
          }
        </QueryState>
      ) : null}
    </div>
  );
}
