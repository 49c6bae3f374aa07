import type { Harness } from '../helpers/harness';
import { startApi } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';

// Shared run dashboards (docs/api/runs.md#sharing-a-run).
describe('run dashboards', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Record<string, string>;
  let readOnly: Record<string, string>;
  let run: { id: string };

  beforeAll(async () => {
    ({ h, stop } = await startRunStack());
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write']));
    readOnly = bearer(await createKey(h, owner, ['runs:read']));
    const scripted = await createAgent(h, auth, { presetId: 'scripted' });
    run = await createRun(h, auth, {
      agentId: scripted.id,
      input: { script: [{ final: { answer: 'forty-two' } }], secretInput: 'do-not-show' },
      metadata: { customer: 'hidden-metadata' },
    });
    await waitForStatus(h, auth, run.id, 'succeeded');
  }, 120_000);
  afterAll(() => stop?.());

  const share = (id: string, headers = auth) => h.request(`/v1/runs/${id}/share`, { method: 'POST', headers });
  const unshare = (id: string, headers = auth) => h.request(`/v1/runs/${id}/share`, { method: 'DELETE', headers });

  it('shares a run: the link shows exactly id, status, output, steps and completedAt, without a credential', async () => {
    const res = await share(run.id);
    expect(res.status).toBe(201);
    const { url, token } = await res.json();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url).toBe(`${h.config.publicUrl}/shared/runs/${token}`);
    const view = await h.request(`/shared/runs/${token}`);
    expect(view.status).toBe(200);
    expect(view.headers.get('x-request-id')).toBeTruthy();
    const body = await view.json();
    expect(Object.keys(body).sort()).toEqual(['completedAt', 'id', 'output', 'status', 'steps']);
    expect(body).toMatchObject({ id: run.id, status: 'succeeded', output: { answer: 'forty-two' } });
    expect(body.completedAt).toEqual(expect.any(String));
    expect(body.steps.length).toBeGreaterThan(0);
    for (const step of body.steps)
      expect(Object.keys(step).sort()).toEqual(['completedAt', 'index', 'startedAt', 'status', 'type']);
    const text = JSON.stringify(body);
    for (const hidden of ['do-not-show', 'hidden-metadata', 'agentId', 'usage', 'workspace', 'input']) {
      expect(text).not.toContain(hidden);
    }
    // the token is stored hashed only
    const [row] = await h.orm.em
      .fork()
      .getConnection()
      .execute('select token_hash from run_shares where run_id = ?', [run.id]);
    expect(row.token_hash).not.toBe(token);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('sharing again replaces the token; unsharing revokes at once; unknown tokens are 404', async () => {
    const first = await (await share(run.id)).json();
    const second = await (await share(run.id)).json();
    expect(second.token).not.toBe(first.token);
    expect((await h.request(`/shared/runs/${first.token}`)).status).toBe(404);
    expect((await h.request(`/shared/runs/${second.token}`)).status).toBe(200);
    expect((await unshare(run.id)).status).toBe(204);
    const gone = await h.request(`/shared/runs/${second.token}`);
    expect(gone.status).toBe(404);
    expect((await gone.json()).error.code).toBe('not_found');
    expect((await unshare(run.id)).status).toBe(404);
    for (const token of ['nope', 'x'.repeat(43), '%00', 'a'.repeat(500)]) {
      expect((await h.request(`/shared/runs/${token}`)).status).toBe(404);
    }
  });

  it('needs runs:write (403); runs of another workspace are 404', async () => {
    expect((await share(run.id, readOnly)).status).toBe(403);
    expect((await unshare(run.id, readOnly)).status).toBe(403);
    const other = await signUp(h);
    const otherAuth = bearer(await createKey(h, other, ['runs:read', 'runs:write']));
    expect((await share(run.id, otherAuth)).status).toBe(404);
    expect((await unshare(run.id, otherAuth)).status).toBe(404);
    expect((await share('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('the public view is rate-limited per client IP', async () => {
    const limited = await startApi({ sharedRatePerMin: 3 });
    try {
      const { token } = await (await share(run.id)).json();
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await limited.request(`/shared/runs/${token}`)).status);
      // the counter is shared by every API process (and this file's other requests count from the same IP)
      expect(statuses.filter((x) => x === 200).length).toBeLessThanOrEqual(3);
      expect(statuses).toContain(429);
      const res = await limited.request(`/shared/runs/${token}`);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await res.json()).error.message).toBe('Rate limit exceeded');
    } finally {
      await limited.close();
    }
  });
});
