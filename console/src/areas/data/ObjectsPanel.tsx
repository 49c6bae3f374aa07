import type { SourceObject, SourceObjectDetail } from '@svc/client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api';
import { Empty, ErrorBox, QueryState } from '../../components/States';

/** The source's tables, views or sheets; choosing one loads its columns for the builder. */
export function ObjectsPanel({
  sourceId,
  selected,
  onSelect,
}: {
  sourceId: string;
  selected: string | null;
  onSelect: (o: SourceObjectDetail) => void;
}) {
  const objects = useQuery({
    queryKey: ['data-sources', sourceId, 'objects'],
    queryFn: () => api<{ objects: SourceObject[] }>(`/v1/data-sources/${sourceId}/objects`),
    retry: false,
  });
  const open = useMutation({
    mutationFn: (name: string) =>
      api<SourceObjectDetail>(`/v1/data-sources/${sourceId}/objects/${encodeURIComponent(name)}`),
    onSuccess: onSelect,
  });
  return (
    <nav aria-label="Objects of the source">
      <h2>Objects</h2>
      <QueryState query={objects} what="the objects">
        {(d) =>
          d.objects.length === 0 ? (
            <Empty>Nothing to read yet.</Empty>
          ) : (
            <ul className="list object-list">
              {d.objects.map((o) => (
                <li key={o.name}>
                  <button
                    type="button"
                    aria-pressed={selected === o.name}
                    disabled={open.isPending}
                    onClick={() => open.mutate(o.name)}
                  >
                    {o.name} <span className="small muted">({o.kind})</span>
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <ErrorBox error={open.error} title="Could not open the object" />
    </nav>
  );
}
