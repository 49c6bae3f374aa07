import { randomUUID } from 'node:crypto';
import { SCOPES, ROLE_SCOPES } from '../../domain/identity/scopes';
import { startApi, type Harness } from '../helpers/harness';
import { addMember, bearer, createKey, signUp } from '../helpers/factories';

// Credentials, scopes and the role table (docs/api/identity.md), over HTTP.
describe('credentials and access', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  it('answers a missing credential with 401 unauthorized and WWW-Authenticate: Bearer', async () => {
    const res = await h.request('/v1/api-keys');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect((await res.json()).error.code).toBe('unauthorized');
  });

  it('answers an unknown key, a malformed header and an unknown session with 401', async () => {
    for (const headers of [
      bearer('svc_live_' + 'x'.repeat(43)),
      bearer('not-a-svc-key'),
      { authorization: 'Basic Zm9vOmJhcg==' },
      { cookie: 'svc_session=' + 'a'.repeat(43) },
    ]) {
      const res = await h.request('/v1/api-keys', { headers });
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe('unauthorized');
    }
  });

  it('gives a valid key without the scope 403 forbidden, not 401', async () => {
    const owner = await signUp(h);
    const key = await createKey(h, owner, ['runs:read']);
    const res = await h.request('/v1/api-keys', { headers: bearer(key) });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe('forbidden');
  });

  it('accepts only sessions on /v1/console/* : a valid key gets 403', async () => {
    const owner = await signUp(h);
    const key = await createKey(h, owner, [...SCOPES]);
    const res = await h.request('/v1/console/me', { headers: bearer(key) });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe('forbidden');
    expect((await h.request('/v1/console/me')).status).toBe(401);
  });

  it('accepts either credential on other routes', async () => {
    const owner = await signUp(h);
    const key = await createKey(h, owner, ['keys:manage']);
    expect((await h.request('/v1/api-keys', { headers: bearer(key) })).status).toBe(200);
    expect((await h.request('/v1/api-keys', { headers: { cookie: owner.cookie } })).status).toBe(200);
  });

  it('resolves the session workspace from X-Workspace-Id, else the first one', async () => {
    const a = await signUp(h);
    const b = await signUp(h);
    await addMember(h, a.userId, b.workspaceId, 'admin');
    // absent header → a's own (first) workspace, where a is owner and may list keys
    await createKey(h, a, ['runs:read'], 'in-a');
    const own = await (await h.request('/v1/api-keys', { headers: { cookie: a.cookie } })).json();
    expect(own.apiKeys.map((k: { name: string }) => k.name)).toEqual(['in-a']);
    // X-Workspace-Id of b → a acts as admin there, and admin may not use keys:manage
    const inB = await h.request('/v1/api-keys', { headers: { cookie: a.cookie, 'X-Workspace-Id': b.workspaceId } });
    expect(inB.status).toBe(403);
    // a workspace a is not in → 403, for a real id and for garbage alike
    for (const ws of [randomUUID(), 'not-a-uuid']) {
      const res = await h.request('/v1/api-keys', { headers: { cookie: b.cookie, 'X-Workspace-Id': ws } });
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe('forbidden');
    }
    const foreign = await h.request('/v1/api-keys', { headers: { cookie: b.cookie, 'X-Workspace-Id': a.workspaceId } });
    expect(foreign.status).toBe(403);
  });

  it('checks session roles against the route scope (the role table)', async () => {
    const owner = await signUp(h);
    const member = await signUp(h);
    const admin = await signUp(h);
    await addMember(h, member.userId, owner.workspaceId, 'member');
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const inOwners = (cookie: string) => ({ cookie, 'X-Workspace-Id': owner.workspaceId });
    expect((await h.request('/v1/api-keys', { headers: inOwners(owner.cookie) })).status).toBe(200);
    for (const who of [member, admin]) {
      const res = await h.request('/v1/api-keys', { headers: inOwners(who.cookie) });
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe('forbidden');
    }
  });

  it('has the role table of docs/api/identity.md', () => {
    const reads = SCOPES.filter((s) => s.endsWith(':read'));
    expect([...ROLE_SCOPES.member].sort()).toEqual([...reads, 'runs:write', 'files:write', 'feedback:write'].sort());
    expect(ROLE_SCOPES.admin.has('keys:manage')).toBe(false);
    expect(ROLE_SCOPES.admin.has('runner:run')).toBe(true);
    expect(ROLE_SCOPES.admin.has('webhooks:manage')).toBe(true);
    expect(ROLE_SCOPES.admin.has('agents:write')).toBe(true);
    expect(ROLE_SCOPES.member.has('agents:write')).toBe(false);
    expect([...ROLE_SCOPES.owner].sort()).toEqual([...SCOPES].sort());
  });

  it('refuses session writes from a foreign Origin (CSRF) but allows configured and absent origins', async () => {
    const owner = await signUp(h);
    const create = (headers: Record<string, string>) =>
      h.request('/v1/api-keys', {
        method: 'POST',
        headers: { cookie: owner.cookie, ...headers },
        json: { name: 'k', scopes: ['runs:read'] },
      });
    const evil = await create({ Origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect((await evil.json()).error.code).toBe('forbidden');
    expect((await create({ Origin: h.config.consoleOrigins[0] })).status).toBe(201);
    expect((await create({})).status).toBe(201);
    // reads are not subject to the origin check
    expect(
      (await h.request('/v1/api-keys', { headers: { cookie: owner.cookie, Origin: 'https://evil.example' } })).status,
    ).toBe(200);
  });

  it('does not apply the origin check to API keys', async () => {
    const owner = await signUp(h);
    const key = await createKey(h, owner, ['keys:manage', 'runs:read']);
    const res = await h.request('/v1/api-keys', {
      method: 'POST',
      headers: { ...bearer(key), Origin: 'https://evil.example' },
      json: { name: 'from-a-server', scopes: ['runs:read'] },
    });
    expect(res.status).toBe(201);
  });
});
