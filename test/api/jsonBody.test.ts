import { gzipSync } from 'node:zlib';
import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';

// docs/api/errors.md: how a JSON body is read before any route schema sees it.
describe('JSON bodies', () => {
  let h: Harness;
  let auth: Record<string, string>;

  beforeAll(async () => {
    h = await startApi();
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['agents:read', 'agents:write', 'runs:read', 'runs:write']));
  });
  afterAll(() => h?.close());

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    h.request(path, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', ...headers }, body });

  it('drops `__proto__` keys at any depth instead of refusing the body, and pollutes no prototype', async () => {
    const agent = await (await post('/v1/agents', '{"name":"proto","__proto__":{"polluted":true}}')).json();
    expect(agent).toMatchObject({ name: 'proto' });
    const res = await post(
      '/v1/runs',
      JSON.stringify({ agentId: agent.id }).replace(
        '}',
        ',"input":{"a":1,"__proto__":{"polluted":true},"deep":[{"__proto__":{"x":1},"b":2}]},"metadata":{"__proto__":{"isAdmin":true}}}',
      ),
    );
    expect(res.status).toBe(201);
    const run = await res.json();
    expect(run.input).toEqual({ a: 1, deep: [{ b: 2 }] });
    expect(run.metadata).toEqual({});
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('refuses U+0000 in any string or key with 400 validation_error naming where (PostgreSQL cannot store it)', async () => {
    const agent = await (await post('/v1/agents', JSON.stringify({ name: 'nul' }))).json();
    const cases: Array<[unknown, string]> = [
      [{ agentId: agent.id, input: { text: 'a\u0000b' } }, 'input.text'],
      [{ agentId: agent.id, metadata: { 'k\u0000': 1 } }, 'metadata.k\u0000'],
      [{ agentId: agent.id, input: { list: [1, ['\u0000']] } }, 'input.list.1.0'],
    ];
    for (const [body, path] of cases) {
      const res = await post('/v1/runs', JSON.stringify(body));
      expect(res.status).toBe(400);
      const error = (await res.json()).error;
      expect(error.code).toBe('validation_error');
      expect(error.details.issues.map((i: { path: string }) => i.path)).toEqual([path]);
    }
    const runs = await (await h.request(`/v1/runs?agentId=${agent.id}`, { headers: auth })).json();
    expect(runs.runs).toEqual([]);
  });

  it('still reads gzip bodies, and answers invalid_json and payload_too_large as before', async () => {
    const zipped = await h.request('/v1/agents', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ name: 'zipped' })),
    });
    expect(zipped.status).toBe(201);
    expect((await post('/v1/agents', '{"name":')).status).toBe(400);
    const big = await post(
      '/v1/agents',
      JSON.stringify({ name: 'x', instructions: 'y'.repeat(h.config.maxJsonBytes) }),
    );
    expect(big.status).toBe(413);
  });
});
