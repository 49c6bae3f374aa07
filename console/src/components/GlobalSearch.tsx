import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, matchRoutes, useLocation, type RouteObject } from 'react-router';
import type { SearchType } from '@svc/client';
import { api, qs } from '../api';
import { areas } from '../areas';
import { ErrorBox } from './States';

interface SearchResult {
  type: SearchType;
  id: string;
  title: string;
  snippet: string;
}

const TYPE_LABELS: Record<SearchType, string> = {
  runs: 'Run',
  agents: 'Agent',
  files: 'File',
  knowledge: 'Knowledge',
  flows: 'Flow',
};

// The core pages (console/src/main.tsx) that show one result; files have no page of their own.
const CORE: Partial<Record<SearchType, (id: string) => string>> = {
  runs: (id) => `/runs/${id}`,
  agents: (id) => `/agents/${id}`,
  files: () => '/files',
};
const areaRoutes: RouteObject[] = areas.flatMap((a) => a.routes);

/** The console page of a result: its own page when an area has one, else its list, else none. */
export function resultPath(type: SearchType, id: string): string | null {
  const core = CORE[type];
  if (core) return core(id);
  for (const path of [`/${type}/${id}`, `/${type}`]) {
    const match = matchRoutes(areaRoutes, path);
    if (match && !match.some((m) => m.route.path === '*')) return path;
  }
  return null;
}

/** The snippet with the service's `<mark>` spans as marks, everything else as text (never as HTML). */
function Snippet({ text }: { text: string }) {
  const parts = text.split(/(<mark>[^<]*<\/mark>)/);
  return (
    <>
      {parts.map((p, i) =>
        p.startsWith('<mark>') && p.endsWith('</mark>') ? <mark key={i}>{p.slice(6, -7)}</mark> : p,
      )}
    </>
  );
}

const typing = (el: Element | null) =>
  el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));

/**
 * The header's search over the workspace (`GET /v1/search`, docs/api/search.md): `/` anywhere outside a
 * field focuses it, Escape closes the results, each result links to the page that shows it.
 */
export function GlobalSearch() {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const location = useLocation();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Escape closes the results wherever focus is (a resize or a click elsewhere may have moved it)
      if (e.key === 'Escape') return setOpen(false);
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || typing(document.activeElement)) return;
      e.preventDefault();
      input.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  // typing settles for a moment before the service is asked
  useEffect(() => {
    const t = setTimeout(() => setQ(text.trim()), 250);
    return () => clearTimeout(t);
  }, [text]);
  useEffect(() => setOpen(false), [location.pathname]);

  const results = useQuery({
    queryKey: ['search', q],
    queryFn: () => api<{ results: SearchResult[] }>(`/v1/search${qs({ q, limit: 20 })}`),
    enabled: q.length > 0,
    staleTime: 10_000,
  });
  const shown = open && q.length > 0;
  return (
    <div
      className="global-search"
      role="search"
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setOpen(false);
      }}
      onKeyDown={(e) => {
        // closes the results; focus stays where it is (moving it to the box would open them again)
        if (e.key === 'Escape') setOpen(false);
      }}
    >
      <label htmlFor={id} className="sr-only">
        Search the workspace
      </label>
      <input
        id={id}
        ref={input}
        type="search"
        placeholder="Search (press /)"
        maxLength={500}
        autoComplete="off"
        value={text}
        aria-controls={shown ? `${id}-results` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
      />
      {shown ? (
        <div id={`${id}-results`} className="search-results" role="region" aria-label="Search results">
          {results.isPending ? (
            <p className="muted small" role="status">
              Searching…
            </p>
          ) : results.error ? (
            <ErrorBox error={results.error} title="Could not search" />
          ) : (results.data?.results.length ?? 0) === 0 ? (
            <p className="small" role="status">
              Nothing matches “{q}”.
            </p>
          ) : (
            <ul>
              {(results.data?.results ?? []).map((r) => {
                const to = resultPath(r.type, r.id);
                return (
                  <li key={`${r.type}-${r.id}`}>
                    <span className="badge">{TYPE_LABELS[r.type] ?? r.type}</span>{' '}
                    {to ? <Link to={to}>{r.title || r.id}</Link> : <span>{r.title || r.id}</span>}
                    {r.snippet ? (
                      <div className="small muted wrap">
                        <Snippet text={r.snippet} />
                      </div>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      ) : null}
    </div>
  );
}
