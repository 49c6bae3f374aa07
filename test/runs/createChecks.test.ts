import { randomUUID } from 'node:crypto';
import { runAdmin } from '../../scripts/admin';
import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack, type RunningWorker } from '../helpers/worker';

// The create checks and their order (docs/api/runs.md), billing and unverified sessions (docs/api/billing.md).
describe('run creation checks', () => {
  let h: Harness;
  let worker: RunningWorker;

  beforeAll(async () => {
    ({ h, worker } = await startRunStack());
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await h?.close();
  });

  const setup = async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const auth = bearer(
      await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write', 'usage:read', 'keys:manage']),
    );
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    return { owner, auth, agent };
  };

  it('replays an idempotent create: same key and body → the same run (200); other body → 409 conflict', async () => {
    const { auth, agent } = await setup();
    const key = randomUUID();
    const headers = { ...auth, 'Idempotency-Key': key };
    const body = { agentId: agent.id, input: { a: 1, b: [1, 2] } };
    const first = await h.request('/v1/runs', { method: 'POST', headers, json: body });
    expect(first.status).toBe(201);
    const run = await first.json();
    const again = await h.request('/v1/runs', {
      method: 'POST',
      headers,
      json: { input: { b: [1, 2], a: 1 }, agentId: agent.id },
    });
    expect(again.status).toBe(200);
    expect((await again.json()).id).toBe(run.id);
    const other = await h.request('/v1/runs', {
      method: 'POST',
      headers,
      json: { agentId: agent.id, input: { a: 2 } },
    });
    expect(other.status).toBe(409);
    expect((await other.json()).error.code).toBe('conflict');
    // concurrent creates with one key make one run
    const key2 = randomUUID();
    const burst = await Promise.all(
      Array.from({ length: 5 }, () =>
        h.request('/v1/runs', { method: 'POST', headers: { ...auth, 'Idempotency-Key': key2 }, json: body }),
      ),
    );
    const ids = new Set(await Promise.all(burst.map(async (r) => (await r.json()).id)));
    expect(ids.size).toBe(1);
    expect(burst.filter((r) => r.status === 201)).toHaveLength(1);
  });

  it('checks in order: unknown agent 404, unknown file 400', async () => {
    const { auth, agent } = await setup();
    const missing = await h.request('/v1/runs', {
      method: 'POST',
      headers: auth,
      json: { agentId: randomUUID(), input: { fileIds: [randomUUID()] } },
    });
    expect(missing.status).toBe(404);
    const noFile = await h.request('/v1/runs', {
      method: 'POST',
      headers: auth,
      json: { agentId: agent.id, input: { fileIds: [randomUUID()] } },
    });
    expect(noFile.status).toBe(400);
    expect((await noFile.json()).error.details.issues[0].path).toBe('input.fileIds.0');
  });

  it("accepts fileIds of uploaded files and keeps them in the run input; another workspace's file is unknown", async () => {
    const { owner, auth, agent } = await setup();
    const writer = bearer(await createKey(h, owner, ['files:write']));
    const upload = await h.request('/v1/files', {
      method: 'POST',
      headers: { ...writer, 'content-type': 'text/plain', 'x-filename': 'notes.txt' },
      body: 'hello',
    });
    expect(upload.status).toBe(201);
    const file = await upload.json();
    const run = await createRun(h, auth, { agentId: agent.id, input: { fileIds: [file.id] } });
    const done = await waitForStatus(h, auth, run.id, 'succeeded');
    expect(done.output).toEqual({ echo: { fileIds: [file.id] } });
    const stranger = await setup();
    const foreign = await h.request('/v1/runs', {
      method: 'POST',
      headers: stranger.auth,
      json: { agentId: stranger.agent.id, input: { fileIds: [file.id] } },
    });
    expect(foreign.status).toBe(400);
  });

  it('refuses with 402 billing.insufficient_credits exactly when the balance is below the required amount', async () => {
    const { owner, auth, agent } = await setup();
    // builtin/echo: perRunUsd 0.001 and no token price, so 0.001 USD is exactly enough
    await runAdmin(h.orm, ['credits:set', owner.workspaceId, '0.000999']);
    const refused = await h.request('/v1/runs', { method: 'POST', headers: auth, json: { agentId: agent.id } });
    expect(refused.status).toBe(402);
    expect((await refused.json()).error).toMatchObject({
      code: 'billing.insufficient_credits',
      details: { required: 0.001, available: 0.000999 },
    });
    await runAdmin(h.orm, ['credits:set', owner.workspaceId, '0.001']);
    const run = await createRun(h, auth, { agentId: agent.id });
    await waitForStatus(h, auth, run.id, 'succeeded');
    const balance = await (await h.request('/v1/usage/balance', { headers: auth })).json();
    expect(balance).toEqual({ balanceUsd: 0, plan: 'scale', entitlements: { apiRateLimitPerMin: 1200 } });
    const after = await h.request('/v1/runs', { method: 'POST', headers: auth, json: { agentId: agent.id } });
    expect(after.status).toBe(402);
  });

  it('refuses a key at its monthly spend cap with 402 billing.spend_cap_exceeded, and only at it', async () => {
    const { owner, agent } = await setup();
    const key = await createKey(h, owner, ['runs:read', 'runs:write']);
    const auth = bearer(key);
    const { apiKeys } = await (await h.request('/v1/api-keys', { headers: { cookie: owner.cookie } })).json();
    const keyId = apiKeys.find((k: { prefix: string }) => key.startsWith(k.prefix)).id;
    await h.request(`/v1/api-keys/${keyId}/spend-cap`, {
      method: 'PUT',
      headers: { cookie: owner.cookie },
      json: { monthlySpendCapUsd: 0.002 },
    });
    for (let i = 0; i < 2; i++)
      await waitForStatus(h, auth, (await createRun(h, auth, { agentId: agent.id })).id, 'succeeded');
    const capped = await h.request('/v1/runs', { method: 'POST', headers: auth, json: { agentId: agent.id } });
    expect(capped.status).toBe(402);
    expect((await capped.json()).error).toMatchObject({
      code: 'billing.spend_cap_exceeded',
      details: { cap: 0.002, spent: 0.002 },
    });
    const listed = await (await h.request('/v1/api-keys', { headers: { cookie: owner.cookie } })).json();
    expect(listed.apiKeys.find((k: { id: string }) => k.id === keyId).spentThisMonthUsd).toBe(0.002);
    // the session is not subject to a key's cap
    await runAdmin(h.orm, ['user:verify', owner.email]);
    expect(
      (await h.request('/v1/runs', { method: 'POST', headers: { cookie: owner.cookie }, json: { agentId: agent.id } }))
        .status,
    ).toBe(201);
  });

  it('limits unverified sessions to SVC_UNVERIFIED_RUN_LIMIT runs; keys and verified sessions are not limited', async () => {
    const { owner, auth, agent } = await setup();
    const session = { cookie: owner.cookie };
    for (let i = 0; i < h.config.unverifiedRunLimit; i++) {
      expect(
        (await h.request('/v1/runs', { method: 'POST', headers: session, json: { agentId: agent.id } })).status,
      ).toBe(201);
    }
    const over = await h.request('/v1/runs', { method: 'POST', headers: session, json: { agentId: agent.id } });
    expect(over.status).toBe(403);
    const body = await over.json();
    expect(body.error.code).toBe('auth.email_verification_required');
    expect(body.error.message).toContain(String(h.config.unverifiedRunLimit));
    expect((await h.request('/v1/runs', { method: 'POST', headers: auth, json: { agentId: agent.id } })).status).toBe(
      201,
    );
    await runAdmin(h.orm, ['user:verify', owner.email]);
    expect(
      (await h.request('/v1/runs', { method: 'POST', headers: session, json: { agentId: agent.id } })).status,
    ).toBe(201);
  });

  it('holds the unverified limit under concurrency: 15 parallel session creates make exactly the limit', async () => {
    const { owner, agent } = await setup();
    expect(h.config.unverifiedRunLimit).toBe(3);
    const burst = await Promise.all(
      Array.from({ length: 15 }, () =>
        h.request('/v1/runs', { method: 'POST', headers: { cookie: owner.cookie }, json: { agentId: agent.id } }),
      ),
    );
    const codes = await Promise.all(
      burst.map(async (r) => `${r.status} ${r.status === 201 ? '' : (await r.json()).error.code}`.trim()),
    );
    expect(codes.filter((c) => c === '201')).toHaveLength(3);
    expect(codes.filter((c) => c === '403 auth.email_verification_required')).toHaveLength(12);
    const [{ count }] = await h.orm.em
      .fork()
      .getConnection()
      .execute('select count(*) from runs where user_id = ?', [owner.userId]);
    expect(Number(count)).toBe(3);
  });

  it('marks the run failed and answers 503 when its workflow cannot be started, never leaving it queued', async () => {
    const { auth, agent } = await setup();
    const key = randomUUID();
    const create = (api: Harness) =>
      api.request('/v1/runs', {
        method: 'POST',
        headers: { ...auth, 'Idempotency-Key': key },
        json: { agentId: agent.id, input: { n: 1 } },
      });
    const down = await startApi({ ...h.config, temporal: { ...h.config.temporal, address: '127.0.0.1:9' } });
    try {
      const res = await create(down);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).not.toBeNull();
      expect((await res.json()).error.code).toBe('unavailable');
    } finally {
      await down.close();
    }
    const { runs } = await (await h.request('/v1/runs', { headers: auth })).json();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'failed', error: { code: 'unavailable' } });
    // its event stream tells the story to the end and closes, so nobody waits on it forever
    const stream = await h.request(`/v1/runs/${runs[0].id}/events`, { headers: auth });
    const statuses = [...(await stream.text()).matchAll(/"status":"(\w+)"/g)].map((m) => m[1]);
    expect(statuses).toEqual(['queued', 'failed']);
    // the caller's retry with the same Idempotency-Key creates the run it asked for
    const retry = await create(h);
    expect(retry.status).toBe(201);
    const created = await retry.json();
    expect(created.id).not.toBe(runs[0].id);
    expect((await waitForStatus(h, auth, created.id, 'succeeded')).output).toEqual({ echo: { n: 1 } });
  });

  it('reports usage by day and by agent, and the balance after charges', async () => {
    const { auth, agent } = await setup();
    for (let i = 0; i < 2; i++)
      await waitForStatus(h, auth, (await createRun(h, auth, { agentId: agent.id, input: { i } })).id, 'succeeded');
    const today = new Date().toISOString().slice(0, 10);
    const usage = await (await h.request(`/v1/usage?from=${today}&to=${today}`, { headers: auth })).json();
    expect(usage).toMatchObject({ from: today, to: today, runs: 2, costUsd: 0.002 });
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.byDay).toEqual([expect.objectContaining({ date: today, runs: 2 })]);
    expect(usage.byAgent).toEqual([expect.objectContaining({ agentId: agent.id, runs: 2, costUsd: 0.002 })]);
    const balance = await (await h.request('/v1/usage/balance', { headers: auth })).json();
    expect(balance.balanceUsd).toBe(h.config.trialCreditsUsd - 0.002);
    expect((await h.request(`/v1/usage?from=${today}&to=2000-01-01`, { headers: auth })).status).toBe(400);
    expect((await h.request('/v1/usage?from=yesterday&to=today', { headers: auth })).status).toBe(400);
  });
});
