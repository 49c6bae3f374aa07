/**
 * The one way the console talks to the service: same-origin fetches with the session cookie, the chosen
 * workspace in `X-Workspace-Id`, and every write as JSON (so the API's Origin check, docs/api/identity.md,
 * is what guards it). Failures become `ApiError` with the service's code, message and request id.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

const WORKSPACE_KEY = 'svc.workspaceId';
let workspaceId: string | null = readStoredWorkspace();

function readStoredWorkspace(): string | null {
  try {
    return localStorage.getItem(WORKSPACE_KEY);
  } catch {
    return null;
  }
}

export function currentWorkspaceId(): string | null {
  return workspaceId;
}

export function setWorkspaceId(id: string | null): void {
  workspaceId = id;
  try {
    if (id) localStorage.setItem(WORKSPACE_KEY, id);
    else localStorage.removeItem(WORKSPACE_KEY);
  } catch {
    // private mode: the choice lasts for this page only
  }
}

export function baseHeaders(): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (workspaceId) headers['X-Workspace-Id'] = workspaceId;
  return headers;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export async function api<T>(
  path: string,
  opts: { method?: Method; json?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  const method = opts.method ?? 'GET';
  const headers = baseHeaders();
  let body: string | undefined;
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json ?? {});
  }
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body, credentials: 'same-origin', signal: opts.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'network_error', 'The service could not be reached', null);
  }
  return readResponse<T>(res);
}

export async function readResponse<T>(res: Response): Promise<T> {
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!res.ok) throw toApiError(res.status, parsed, res.headers.get('X-Request-Id'));
  return parsed as T;
}

export function toApiError(status: number, parsed: unknown, requestId: string | null): ApiError {
  const e = (
    parsed as { error?: { code?: string; message?: string; requestId?: string; details?: Record<string, unknown> } }
  )?.error;
  return new ApiError(
    status,
    e?.code ?? 'http_error',
    e?.message ?? `HTTP ${status}`,
    e?.requestId ?? requestId,
    e?.details,
  );
}

export const qs = (params: Record<string, string | number | undefined | null>) => {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  const s = search.toString();
  return s ? `?${s}` : '';
};
