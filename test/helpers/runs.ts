import type { Harness } from './harness';

/**
 * Polls `GET /v1/runs/{id}` until the run reaches `until` (a status, any of several, or a predicate
 * over the run's JSON) and returns that JSON; fails after `timeoutMs` with the last state seen.
 */
export async function waitForStatus(
  h: Harness,
  headers: Record<string, string>,
  runId: string,
  until: string | string[] | ((run: any) => boolean),
  timeoutMs = 30_000,
): Promise<any> {
  const matches =
    typeof until === 'function' ? until : (run: any) => ([] as string[]).concat(until).includes(run.status);
  const wanted = typeof until === 'function' ? 'the expected state' : ([] as string[]).concat(until).join('|');
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    const res = await h.request(`/v1/runs/${runId}`, { headers });
    last = await res.json();
    if (matches(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${runId} did not reach ${wanted}; last seen ${JSON.stringify(last)}`);
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
