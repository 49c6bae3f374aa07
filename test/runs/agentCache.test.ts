import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { createAgent, createRun } from '../helpers/runs';
import { testTaskQueue } from '../helpers/worker';
import { loadConfig } from '../../platform/config';

// A create reads its agent from the API process's memory (domain/agents/agentCache.ts); the insert checks the
// remembered version, so a change made anywhere is seen by the next create on every replica.
describe('the agent a run is created with', () => {
  let h: Harness;
  let replica: Harness;
  let auth: Record<string, string>;

  beforeAll(async () => {
    // No worker: the runs stay queued, which is all these tests look at.
    const base = loadConfig(process.env);
    h = await startApi({ temporal: { ...base.temporal, taskQueue: testTaskQueue() } });
    replica = await startApi({ temporal: h.config.temporal }, { orm: h.orm, temporal: h.temporal });
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:read', 'agents:write']));
  }, 120_000);
  afterAll(async () => {
    await replica?.close();
    await h?.close();
  });

  const patch = async (api: Harness, id: string, json: unknown) => {
    const res = await api.request(`/v1/agents/${id}`, { method: 'PATCH', headers: auth, json });
    expect(res.status).toBe(200);
  };
  const agentVersionOfRun = async (runId: string) => {
    const [row] = await h.orm.em.fork().getConnection().execute('select agent_version from runs where id = ?', [runId]);
    return row.agent_version as number;
  };

  it('runs the version an update made just before, and the model of that version', async () => {
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    const first = await createRun(h, auth, { agentId: agent.id, input: { a: 1 } });
    expect(first.agentVersion).toBe(1);
    await patch(h, agent.id, { instructions: 'second' });
    const second = await createRun(h, auth, { agentId: agent.id, input: { a: 2 } });
    expect(second.agentVersion).toBe(2);
    expect(await agentVersionOfRun(second.id)).toBe(2);
    await patch(h, agent.id, { modelId: 'builtin/scripted' });
    const third = await createRun(h, auth, { agentId: agent.id, input: { script: [{ final: 1 }] } });
    expect(third.agentVersion).toBe(3);
    // and the remembered version serves the next create
    const fourth = await createRun(h, auth, { agentId: agent.id, input: { script: [{ final: 2 }] } });
    expect(fourth.agentVersion).toBe(3);
  });

  it('answers 404 not_found once the agent is deleted, and for another workspace, remembered or not', async () => {
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    await createRun(h, auth, { agentId: agent.id, input: {} });
    const other = await signUp(h);
    const theirs = bearer(await createKey(h, other, ['runs:write']));
    const foreign = await h.request('/v1/runs', {
      method: 'POST',
      headers: theirs,
      json: { agentId: agent.id, input: {} },
    });
    expect(foreign.status).toBe(404);
    expect((await h.request(`/v1/agents/${agent.id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    for (const input of [{}, { fileIds: ['00000000-0000-4000-8000-000000000000'] }]) {
      const res = await h.request('/v1/runs', { method: 'POST', headers: auth, json: { agentId: agent.id, input } });
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe('not_found');
    }
    const [{ count }] = await h.orm.em
      .fork()
      .getConnection()
      .execute('select count(*)::int as count from runs where agent_id = ?', [agent.id]);
    expect(count).toBe(1);
  });

  it('runs the new version on one replica right after an update through another', async () => {
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    // both replicas remember version 1
    for (const api of [h, replica])
      expect((await createRun(api, auth, { agentId: agent.id, input: {} })).agentVersion).toBe(1);
    await patch(h, agent.id, { instructions: 'two' });
    expect((await createRun(replica, auth, { agentId: agent.id, input: {} })).agentVersion).toBe(2);
    await patch(replica, agent.id, { instructions: 'three' });
    expect((await createRun(h, auth, { agentId: agent.id, input: {} })).agentVersion).toBe(3);
    // deleted through one, refused by the other that remembers it
    expect((await replica.request(`/v1/agents/${agent.id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    const res = await h.request('/v1/runs', { method: 'POST', headers: auth, json: { agentId: agent.id, input: {} } });
    expect(res.status).toBe(404);
  });
});
