import type { Harness } from './harness';

/** Polls `GET /v1/runs/{id}` until the run reaches `status` (or any of them), failing after `timeoutMs`. */
export async function waitForStatus(
  h: Harness,
  headers: Record<string, string>,
  runId: string,
  status: string | string[],
  timeoutMs = 30_000,
): Promise<any> {
  const wanted = Array.isArray(status) ? status : [status];
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    const res = await h.request(`/v1/runs/${runId}`, { headers });
    last = await res.json();
    if (wanted.includes(last.status)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${runId} did not reach ${wanted.join('|')}; last seen ${JSON.stringify(last)}`);
}

export async function createAgent(
  h: Harness,
  headers: Record<string, string>,
  body: Record<string, unknown>,
): Promise<any> {
  const res = await h.request('/v1/agents', { method: 'POST', headers, json: { name: 'agent', ...body } });
  if (res.status !== 201) throw new Error(`agent creation failed: ${res.status} ${await res.text()}`);
  return res.json();
}

export async function createRun(
  h: Harness,
  headers: Record<string, string>,
  body: Record<string, unknown>,
): Promise<any> {
  const res = await h.request('/v1/runs', { method: 'POST', headers, json: body });
  if (res.status !== 201) throw new Error(`run creation failed: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Polls the run until `predicate` holds. */
export async function waitForRun(
  h: Harness,
  headers: Record<string, string>,
  runId: string,
  predicate: (run: any) => boolean,
  timeoutMs = 30_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    last = await (await h.request(`/v1/runs/${runId}`, { headers })).json();
    if (predicate(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${runId} never matched; last seen ${JSON.stringify(last)}`);
}
