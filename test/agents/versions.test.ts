import { randomUUID } from 'node:crypto';
import { addMember, bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';

// One version of an agent and restoring it as a new version (docs/api/agents.md#versions).
describe('agent versions: one version, restore', () => {
  let h: Harness;
  let owner: Account;
  let writer: Record<string, string>;
  beforeAll(async () => {
    h = await startApi();
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    writer = bearer(await createKey(h, owner, ['agents:read', 'agents:write']));
  });
  afterAll(() => h.close());

  /** An agent at version 3: v1 default, v2 `first` with review, v3 `second` with the http_request tool. */
  async function threeVersions(): Promise<string> {
    const res = await h.request('/v1/agents', { method: 'POST', headers: writer, json: { name: 'V' } });
    const { id } = await res.json();
    const patch = (json: unknown) => h.request(`/v1/agents/${id}`, { method: 'PATCH', headers: writer, json });
    expect((await patch({ instructions: 'first', settings: { review: true } })).status).toBe(200);
    expect((await patch({ instructions: 'second', tools: ['http_request'], settings: { review: false } })).status).toBe(
      200,
    );
    return id;
  }

  it('reads one version, with instructions only for a caller who may see them', async () => {
    const id = await threeVersions();
    const res = await h.request(`/v1/agents/${id}/versions/2`, { headers: writer });
    expect(res.status).toBe(200);
    const v2 = await res.json();
    expect(v2).toEqual({
      version: 2,
      instructions: 'first',
      modelId: 'builtin/echo',
      tools: [],
      settings: { approval: 'never', review: true, maxSteps: 25 },
      createdAt: expect.any(String),
    });
    const reader = bearer(await createKey(h, owner, ['agents:read']));
    const plain = await (await h.request(`/v1/agents/${id}/versions/2`, { headers: reader })).json();
    expect(plain).not.toHaveProperty('instructions');
    expect(plain.version).toBe(2);
  });

  it('restores version n as a new current version equal to n; the versions in between stay', async () => {
    const id = await threeVersions();
    const res = await h.request(`/v1/agents/${id}/versions/2/restore`, { method: 'POST', headers: writer });
    expect(res.status).toBe(201);
    const agent = await res.json();
    expect(agent).toMatchObject({
      id,
      version: 4,
      instructions: 'first',
      tools: [],
      settings: { approval: 'never', review: true, maxSteps: 25 },
    });
    expect((await (await h.request(`/v1/agents/${id}`, { headers: writer })).json()).version).toBe(4);
    const { versions } = await (await h.request(`/v1/agents/${id}/versions`, { headers: writer })).json();
    expect(versions.map((v: { version: number; instructions: string }) => [v.version, v.instructions])).toEqual([
      [4, 'first'],
      [3, 'second'],
      [2, 'first'],
      [1, null],
    ]);
    // restoring the current version still records the restore as a new version
    const again = await h.request(`/v1/agents/${id}/versions/4/restore`, { method: 'POST', headers: writer });
    expect((await again.json()).version).toBe(5);
  });

  it('numbers concurrent restores one after another, none lost and none clashing', async () => {
    const id = await threeVersions();
    const results = await Promise.all(
      [1, 2, 3, 1, 2, 3].map((n) =>
        h.request(`/v1/agents/${id}/versions/${n}/restore`, { method: 'POST', headers: writer }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const made = await Promise.all(results.map(async (r) => (await r.json()).version));
    expect([...made].sort((a, b) => a - b)).toEqual([4, 5, 6, 7, 8, 9]);
    const { versions } = await (await h.request(`/v1/agents/${id}/versions?limit=100`, { headers: writer })).json();
    expect(versions).toHaveLength(9);
  });

  it('refuses to restore a version whose model no longer exists, with 400 at modelId', async () => {
    // the same database behind an API that still has the OpenAI model `openai/gone` (never called)
    const openai = { ...h.config.openai, baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-test', models: [{ name: 'gone', inputPerMTokUsd: 0, outputPerMTokUsd: 0 }] };
    const before = await startApi({ openai });
    try {
      const res = await before.request('/v1/agents', {
        method: 'POST',
        headers: writer,
        json: { name: 'old model', modelId: 'openai/gone' },
      });
      expect(res.status).toBe(201);
      const { id } = await res.json();
      const patched = await before.request(`/v1/agents/${id}`, {
        method: 'PATCH',
        headers: writer,
        json: { modelId: 'builtin/echo' },
      });
      expect((await patched.json()).version).toBe(2);
      const refused = await h.request(`/v1/agents/${id}/versions/1/restore`, { method: 'POST', headers: writer });
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.details.issues).toEqual([
        { path: 'modelId', message: expect.stringContaining('openai/gone') },
      ]);
      const agent = await (await h.request(`/v1/agents/${id}`, { headers: writer })).json();
      expect(agent).toMatchObject({ version: 2, modelId: 'builtin/echo' });
      expect((await h.request(`/v1/agents/${id}/versions/1`, { headers: writer })).status).toBe(200);
    } finally {
      await before.close();
    }
  });

  it('answers 404 for an unknown or malformed version, an unknown agent and another workspace', async () => {
    const id = await threeVersions();
    for (const path of [
      `/v1/agents/${id}/versions/4`,
      `/v1/agents/${id}/versions/0`,
      `/v1/agents/${id}/versions/-1`,
      `/v1/agents/${id}/versions/1.5`,
      `/v1/agents/${id}/versions/abc`,
      `/v1/agents/${id}/versions/99999999999`,
      `/v1/agents/${randomUUID()}/versions/1`,
      `/v1/agents/not-a-uuid/versions/1`,
    ]) {
      for (const method of ['GET', 'POST']) {
        const res = await h.request(method === 'GET' ? path : `${path}/restore`, { method, headers: writer });
        expect([method, path, res.status, (await res.json()).error.code]).toEqual([method, path, 404, 'not_found']);
      }
    }
    const stranger = await signUp(h);
    const theirs = bearer(await createKey(h, stranger, ['agents:read', 'agents:write']));
    expect((await h.request(`/v1/agents/${id}/versions/1`, { headers: theirs })).status).toBe(404);
    const foreign = await h.request(`/v1/agents/${id}/versions/1/restore`, { method: 'POST', headers: theirs });
    expect(foreign.status).toBe(404);
    expect((await (await h.request(`/v1/agents/${id}`, { headers: writer })).json()).version).toBe(3);
    await h.request(`/v1/agents/${id}`, { method: 'DELETE', headers: writer });
    expect((await h.request(`/v1/agents/${id}/versions/1`, { headers: writer })).status).toBe(404);
  });

  it('needs agents:read to read and agents:write to restore, for keys and session roles', async () => {
    const id = await threeVersions();
    const restore = (headers: Record<string, string>) =>
      h.request(`/v1/agents/${id}/versions/1/restore`, { method: 'POST', headers });
    const readOnly = bearer(await createKey(h, owner, ['agents:read']));
    const runsOnly = bearer(await createKey(h, owner, ['runs:read']));
    expect((await h.request(`/v1/agents/${id}/versions/1`, { headers: runsOnly })).status).toBe(403);
    const denied = await restore(readOnly);
    expect([denied.status, (await denied.json()).error.code]).toEqual([403, 'forbidden']);
    const member = await signUp(h);
    const admin = await signUp(h);
    await addMember(h, member.userId, owner.workspaceId, 'member');
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const asSession = (a: Account) => ({ cookie: a.cookie, 'X-Workspace-Id': owner.workspaceId });
    expect((await h.request(`/v1/agents/${id}/versions/1`, { headers: asSession(member) })).status).toBe(200);
    expect((await restore(asSession(member))).status).toBe(403);
    expect((await restore(asSession(admin))).status).toBe(201);
    expect((await restore(asSession(owner))).status).toBe(201);
  });
});
