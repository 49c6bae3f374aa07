import type { Harness } from '../helpers/harness';
import { pollUntil } from '../helpers/poll';

type Headers = Record<string, string>;

/** Polls `GET /v1/flow-runs/{id}` until the flow run reaches `until`; fails after `timeoutMs` with the last state. */
export async function waitForFlowRun(
  h: Harness,
  headers: Headers,
  id: string,
  until: string | string[] | ((run: any) => boolean),
  timeoutMs = 30_000,
): Promise<any> {
  const matches =
    typeof until === 'function' ? until : (run: any) => ([] as string[]).concat(until).includes(run.status);
  return pollUntil(
    timeoutMs,
    async () => (await h.request(`/v1/flow-runs/${id}`, { headers })).json(),
    matches,
    `flow run ${id} to reach the expected state`,
  );
}

export async function createFlow(h: Harness, headers: Headers, body: Record<string, unknown>): Promise<any> {
  const res = await h.request('/v1/flows', {
    method: 'POST',
    headers,
    json: { name: 'flow', trigger: { type: 'manual' }, ...body },
  });
  if (res.status !== 201) throw new Error(`flow creation failed: ${res.status} ${await res.text()}`);
  return res.json();
}

export async function runFlow(h: Harness, headers: Headers, flowId: string, input?: unknown): Promise<any> {
  const res = await h.request(`/v1/flows/${flowId}/run`, {
    method: 'POST',
    headers,
    json: input === undefined ? undefined : { input },
  });
  if (res.status !== 202) throw new Error(`flow run failed: ${res.status} ${await res.text()}`);
  return res.json();
}
