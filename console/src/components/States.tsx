import { ApiError } from '../api';

/** The service's message and request id, announced to screen readers. */
export function ErrorBox({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const e = error instanceof ApiError ? error : null;
  return (
    <div className="error" role="alert">
      <strong>{title ?? 'Something went wrong'}:</strong> {e ? e.message : String((error as Error)?.message ?? error)}
      {e?.code && e.code !== 'http_error' ? <span className="muted"> ({e.code})</span> : null}
      {e?.requestId ? (
        <div className="small">
          Request id: <code>{e.requestId}</code>
        </div>
      ) : null}
    </div>
  );
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p className="muted" role="status" aria-live="polite">
      {what}…
    </p>
  );
}

export function Empty({ children }: { children: React.ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** Loading, error or the content: the three states every list and page shows. */
export function QueryState<T>({
  query,
  children,
  what,
}: {
  query: { isPending: boolean; error: unknown; data: T | undefined };
  children: (data: T) => React.ReactNode;
  what?: string;
}) {
  if (query.isPending) return <Loading what={what ? `Loading ${what}` : 'Loading'} />;
  if (query.error) return <ErrorBox error={query.error} title={what ? `Could not load ${what}` : undefined} />;
  return <>{children(query.data as T)}</>;
}
