import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { createAgent, createRun } from '../helpers/runs';

// What `runs:read` grants beyond runs themselves (docs/api/runs.md): a run's dashboard, the files recently
// used as run inputs, and the batches local runners reported.
describe('runs:read grants', () => {
  let h: Harness;
  let auth: Record<string, string>;
  let reader: Record<string, string>;
  let noRunsRead: Record<string, string>;
  let stranger: Record<string, string>;
  let agentId: string;

  beforeAll(async () => {
    h = await startApi();
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write', 'files:write', 'runner:run']));
    reader = bearer(await createKey(h, owner, ['runs:read']));
    noRunsRead = bearer(await createKey(h, owner, ['runs:write', 'agents:read', 'runner:run']));
    const other = await signUp(h);
    await setPlan(h, other.workspaceId, 'scale');
    stranger = bearer(await createKey(h, other, ['runs:read', 'runs:write', 'agents:write', 'files:write']));
    agentId = (await createAgent(h, auth, { presetId: 'general-assistant' })).id;
  }, 60_000);
  afterAll(() => h?.close());

  const get = (path: string, headers = reader) => h.request(path, { headers });

  async function upload(name: string, headers = auth): Promise<string> {
    const res = await h.request('/v1/files', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/plain', 'x-filename': name },
      body: `contents of ${name}`,
    });
    expect(res.status).toBe(201);
    return (await res.json()).id;
  }

  it('GET /v1/runs/{id}/dashboard shows the shared view and whether it is shared', async () => {
    const run = await createRun(h, auth, { agentId, input: { q: 'dash' }, metadata: { secret: 'meta' } });
    const before = await get(`/v1/runs/${run.id}/dashboard`);
    expect(before.status).toBe(200);
    const view = await before.json();
    expect(Object.keys(view).sort()).toEqual(['completedAt', 'id', 'output', 'shared', 'status', 'steps']);
    expect(view).toMatchObject({ id: run.id, shared: false });
    const { token } = await (await h.request(`/v1/runs/${run.id}/share`, { method: 'POST', headers: auth })).json();
    const after = await (await get(`/v1/runs/${run.id}/dashboard`)).json();
    const shared = await (await h.request(`/shared/runs/${token}`)).json();
    // the same view the link shows, plus `shared`
    expect(after).toEqual({ ...shared, shared: true });
    expect((await get(`/v1/runs/${run.id}/dashboard`, noRunsRead)).status).toBe(403);
    const foreign = await get(`/v1/runs/${run.id}/dashboard`, stranger);
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error.code).toBe('not_found');
  });

  it('GET /v1/runs/input-files lists the files runs took, newest use first, each once, in pages', async () => {
    const [a, b, unused] = [await upload('a.txt'), await upload('b.txt'), await upload('unused.txt')];
    const first = await createRun(h, auth, { agentId, input: { fileIds: [a] } });
    const second = await createRun(h, auth, { agentId, input: { fileIds: [b] } });
    const third = await createRun(h, auth, { agentId, input: { fileIds: [a], note: 'again' } });

    const page1 = await (await get('/v1/runs/input-files?limit=1')).json();
    expect(page1.files.map((f: { id: string }) => f.id)).toEqual([a]);
    expect(page1.files[0]).toMatchObject({ filename: 'a.txt', mime: 'text/plain', runId: third.id });
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = await (await get(`/v1/runs/input-files?limit=1&cursor=${page1.nextCursor}`)).json();
    expect(page2.files.map((f: { id: string; runId: string }) => [f.id, f.runId])).toEqual([[b, second.id]]);
    const all = await (await get('/v1/runs/input-files?limit=100')).json();
    const ids = all.files.map((f: { id: string }) => f.id);
    expect(ids.slice(0, 2)).toEqual([a, b]);
    expect(ids).not.toContain(unused);
    expect(new Set(ids).size).toBe(ids.length);
    // the newest use wins: a's use by the first run is superseded by the third's
    expect(page1.files[0].lastUsedAt).toBe(third.createdAt);
    expect(all.files.find((f: { id: string }) => f.id === a).runId).not.toBe(first.id);

    // a deleted file drops out; another workspace sees none of these
    expect((await h.request(`/v1/files/${b}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    const afterDelete = await (await get('/v1/runs/input-files')).json();
    expect(afterDelete.files.map((f: { id: string }) => f.id)).not.toContain(b);
    const theirs = await (await get('/v1/runs/input-files', stranger)).json();
    expect(theirs).toEqual({ files: [], nextCursor: null });
    expect((await get('/v1/runs/input-files', noRunsRead)).status).toBe(403);
    expect((await get('/v1/runs/input-files?cursor=nope')).status).toBe(400);
  });

  it('every POST /v1/local-runs is a batch that lists and reads back with its runs in order', async () => {
    const report = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        input: { i },
        status: 'succeeded' as const,
        output: { i },
        startedAt: '2026-12-01T10:00:00Z',
        completedAt: '2026-12-01T10:00:01Z',
      }));
    const post = async (n: number) => {
      const res = await h.request('/v1/local-runs', {
        method: 'POST',
        headers: noRunsRead,
        json: { agentId, runs: report(n) },
      });
      expect(res.status).toBe(201);
      return (await res.json()) as { batchId: string; runs: Array<{ id: string }> };
    };
    const older = await post(2);
    const newer = await post(1);

    const page1 = await (await get('/v1/local-runs?limit=1')).json();
    expect(page1.batches).toEqual([{ id: newer.batchId, agentId, count: 1, createdAt: expect.any(String) }]);
    const page2 = await (await get(`/v1/local-runs?limit=1&cursor=${page1.nextCursor}`)).json();
    expect(page2.batches.map((b: { id: string; count: number }) => [b.id, b.count])).toEqual([[older.batchId, 2]]);
    const one = await (await get(`/v1/local-runs/${older.batchId}`)).json();
    expect(one).toMatchObject({ id: older.batchId, agentId, count: 2, runIds: older.runs.map((r) => r.id) });

    // the runner's key may report but not read; another workspace gets 404 and an empty list
    expect((await get('/v1/local-runs', noRunsRead)).status).toBe(403);
    expect((await get(`/v1/local-runs/${older.batchId}`, noRunsRead)).status).toBe(403);
    expect((await get(`/v1/local-runs/${older.batchId}`, stranger)).status).toBe(404);
    expect(await (await get('/v1/local-runs', stranger)).json()).toEqual({ batches: [], nextCursor: null });
    expect((await get('/v1/local-runs/not-a-uuid')).status).toBe(404);
  });
});
