import { baseHeaders, toApiError } from '../../api';

/** Fetches `path` as the session (with X-Workspace-Id, which a plain link cannot send) and saves it. */
export async function downloadFrom(path: string, filename: string): Promise<void> {
  const res = await fetch(path, { headers: { ...baseHeaders(), Accept: '*/*' }, credentials: 'same-origin' });
  if (!res.ok) {
    let parsed: unknown;
    try {
      parsed = await res.json();
    } catch {
      parsed = undefined;
    }
    throw toApiError(res.status, parsed, res.headers.get('X-Request-Id'));
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
