import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../../domain/identity/secrets';
import { startApi, type Harness } from '../helpers/harness';
import { pollUntil } from '../helpers/poll';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { ApiKeyCache } from '../../domain/identity/apiKeyCache';
import { resolveApiKey } from '../../domain/identity/credentials';
import { PgListener } from '../../platform/database/listener';
import { createLogger } from '../../platform/logger';

// API keys (docs/api/identity.md): plaintext once, SHA-256 at rest, scopes, spend caps, revocation.
describe('API keys', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  it('creates a key and shows its plaintext exactly once', async () => {
    const owner = await signUp(h);
    const res = await h.request('/v1/api-keys', {
      method: 'POST',
      headers: { cookie: owner.cookie },
      json: { name: 'ci', scopes: ['runs:read', 'runs:write', 'runs:read'], monthlySpendCapUsd: 12.5 },
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(Object.keys(created).sort()).toEqual([
      'createdAt',
      'id',
      'key',
      'monthlySpendCapUsd',
      'name',
      'prefix',
      'scopes',
    ]);
    expect(created.key).toMatch(/^svc_live_[0-9A-Za-z]{40,44}$/);
    expect(created.prefix).toBe(created.key.slice(0, 12));
    expect(created.scopes).toEqual(['runs:read', 'runs:write']);
    expect(created.monthlySpendCapUsd).toBe(12.5);

    const list = await (await h.request('/v1/api-keys', { headers: { cookie: owner.cookie } })).json();
    expect(list.apiKeys).toHaveLength(1);
    expect(list.apiKeys[0]).toEqual({
      id: created.id,
      name: 'ci',
      scopes: ['runs:read', 'runs:write'],
      prefix: created.prefix,
      monthlySpendCapUsd: 12.5,
      spentThisMonthUsd: 0,
      createdAt: created.createdAt,
      lastUsedAt: null,
    });
    expect(JSON.stringify(list)).not.toContain(created.key);
    // at rest: only the SHA-256
    const rows = await h.orm.em
      .fork()
      .getConnection()
      .execute('select key_hash from api_keys where id = ?', [created.id]);
    expect(rows[0].key_hash).toBe(sha256Hex(created.key));
  });

  it('rejects unknown scopes, an empty list and every wildcard with 400 validation_error', async () => {
    const owner = await signUp(h);
    for (const scopes of [[], ['*'], ['runs:*'], ['*:read'], ['runs:read', 'admin'], 'runs:read']) {
      const res = await h.request('/v1/api-keys', {
        method: 'POST',
        headers: { cookie: owner.cookie },
        json: { name: 'x', scopes },
      });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe('validation_error');
      expect(body.error.details.issues[0].path).toMatch(/^scopes/);
    }
    const noName = await h.request('/v1/api-keys', {
      method: 'POST',
      headers: { cookie: owner.cookie },
      json: { scopes: ['runs:read'] },
    });
    expect(noName.status).toBe(400);
  });

  it('lets a key grant only scopes it holds itself', async () => {
    const owner = await signUp(h);
    const key = await createKey(h, owner, ['keys:manage', 'runs:read']);
    const denied = await h.request('/v1/api-keys', {
      method: 'POST',
      headers: bearer(key),
      json: { name: 'escalate', scopes: ['runs:read', 'runs:write'] },
    });
    expect(denied.status).toBe(403);
    expect((await denied.json()).error.code).toBe('forbidden');
    const allowed = await h.request('/v1/api-keys', {
      method: 'POST',
      headers: bearer(key),
      json: { name: 'narrower', scopes: ['runs:read'] },
    });
    expect(allowed.status).toBe(201);
  });

  it('revokes: 204, the key gets 401 at once, a second revoke and unknown ids get 404', async () => {
    const owner = await signUp(h);
    const key = await createKey(h, owner, ['keys:manage']);
    const { apiKeys } = await (await h.request('/v1/api-keys', { headers: bearer(key) })).json();
    const id = apiKeys[0].id;
    expect(apiKeys[0].lastUsedAt).not.toBeNull();
    const del = await h.request(`/v1/api-keys/${id}`, { method: 'DELETE', headers: { cookie: owner.cookie } });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    const after = await h.request('/v1/api-keys', { headers: bearer(key) });
    expect(after.status).toBe(401);
    for (const target of [id, randomUUID(), 'not-a-uuid']) {
      const res = await h.request(`/v1/api-keys/${target}`, { method: 'DELETE', headers: { cookie: owner.cookie } });
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe('not_found');
    }
    const list = await (await h.request('/v1/api-keys', { headers: { cookie: owner.cookie } })).json();
    expect(list.apiKeys).toEqual([]);
  });

  it('refuses a revoked key on another API replica that has already served it within a second', async () => {
    const replica = await startApi({}, { orm: h.orm, temporal: h.temporal });
    try {
      const owner = await signUp(h);
      const key = await createKey(h, owner, ['keys:manage']);
      // both replicas have seen (and remember) the key
      for (const api of [h, replica])
        expect((await api.request('/v1/api-keys', { headers: bearer(key) })).status).toBe(200);
      const { apiKeys } = await (await h.request('/v1/api-keys', { headers: { cookie: owner.cookie } })).json();
      const del = await h.request(`/v1/api-keys/${apiKeys[0].id}`, {
        method: 'DELETE',
        headers: { cookie: owner.cookie },
      });
      expect(del.status).toBe(204);
      // the replica that revoked it refuses it at once
      expect((await h.request('/v1/api-keys', { headers: bearer(key) })).status).toBe(401);
      const other = await pollUntil(
        1000,
        () => replica.request('/v1/api-keys', { headers: bearer(key) }),
        (r) => r.status === 401,
      );
      expect((await other.json()).error.code).toBe('unauthorized');
      // and a plan change reaches the limit of the other replica, which remembers the key and its plan
      const fresh = await createKey(h, owner, ['keys:manage']);
      const before = await replica.request('/v1/api-keys', { headers: bearer(fresh) });
      expect(before.headers.get('ratelimit-limit')).toBe('30');
      await setPlan(h, owner.workspaceId, 'business');
      await pollUntil(
        1000,
        () => replica.request('/v1/api-keys', { headers: bearer(fresh) }),
        (r) => r.headers.get('ratelimit-limit') === '300',
      );
      // a workspace deleted takes its keys with it, on every replica
      await h.orm.em.fork().getConnection().execute('delete from workspaces where id = ?', [owner.workspaceId]);
      await pollUntil(
        1000,
        () => replica.request('/v1/api-keys', { headers: bearer(fresh) }),
        (r) => r.status === 401,
      );
    } finally {
      await replica.close();
    }
  });

  it('drops what it remembers when its LISTEN connection is lost, and remembers again once it listens', async () => {
    const listener = new PgListener(h.config.databaseUrl, createLogger('silent'), { heartbeatMs: 100, maxLagMs: 400 });
    const cache = new ApiKeyCache(listener);
    const states: boolean[] = [];
    listener.onStateChange((up) => states.push(up));
    try {
      await listener.ready();
      const owner = await signUp(h);
      const key = await createKey(h, owner, ['keys:manage']);
      const em = h.orm.em.fork();
      const resolved = await resolveApiKey(em.getConnection(), key, cache);
      expect(cache.get(sha256Hex(key))).toEqual(resolved);

      const conn = em.getConnection();
      await conn.execute('select pg_terminate_backend(?)', [listener.backendPid]);
      await pollUntil(
        2000,
        async () => states,
        (s) => s.includes(false),
      );
      // while it does not listen, nothing is served from memory and nothing is remembered
      expect(cache.get(sha256Hex(key))).toBeUndefined();
      await listener.ready();
      expect(states.at(-1)).toBe(true);
      expect(cache.get(sha256Hex(key))).toBeUndefined();
      await resolveApiKey(em.getConnection(), key, cache);
      expect(cache.get(sha256Hex(key))).toBeDefined();
      // listening again: a revocation made by anyone, even by hand, is heard
      await conn.execute('update api_keys set revoked_at = now() where key_hash = ?', [sha256Hex(key)]);
      await pollUntil(
        1000,
        async () => cache.get(sha256Hex(key)),
        (k) => k === undefined,
      );
      await expect(resolveApiKey(em.getConnection(), key, cache)).rejects.toMatchObject({ code: 'unauthorized' });
    } finally {
      await listener.close();
    }
  });

  it("treats another workspace's key id as not found", async () => {
    const a = await signUp(h);
    const b = await signUp(h);
    await createKey(h, a, ['runs:read']);
    const { apiKeys } = await (await h.request('/v1/api-keys', { headers: { cookie: a.cookie } })).json();
    const del = await h.request(`/v1/api-keys/${apiKeys[0].id}`, { method: 'DELETE', headers: { cookie: b.cookie } });
    expect(del.status).toBe(404);
    const cap = await h.request(`/v1/api-keys/${apiKeys[0].id}/spend-cap`, {
      method: 'PUT',
      headers: { cookie: b.cookie },
      json: { monthlySpendCapUsd: 1 },
    });
    expect(cap.status).toBe(404);
  });

  it('sets and clears the monthly spend cap', async () => {
    const owner = await signUp(h);
    await createKey(h, owner, ['runs:write']);
    const { apiKeys } = await (await h.request('/v1/api-keys', { headers: { cookie: owner.cookie } })).json();
    const put = (monthlySpendCapUsd: unknown) =>
      h.request(`/v1/api-keys/${apiKeys[0].id}/spend-cap`, {
        method: 'PUT',
        headers: { cookie: owner.cookie },
        json: { monthlySpendCapUsd },
      });
    const set = await put(0.123456789);
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ id: apiKeys[0].id, monthlySpendCapUsd: 0.123457, spentThisMonthUsd: 0 });
    expect((await (await put(null)).json()).monthlySpendCapUsd).toBeNull();
    expect((await put(-1)).status).toBe(400);
    expect((await put('10')).status).toBe(400);
  });

  it('forbids a key to change its own spend cap; the owner still can', async () => {
    const owner = await signUp(h);
    const created = await (
      await h.request('/v1/api-keys', {
        method: 'POST',
        headers: { cookie: owner.cookie },
        json: { name: 'capped', scopes: ['keys:manage', 'runs:write'], monthlySpendCapUsd: 1 },
      })
    ).json();
    for (const monthlySpendCapUsd of [null, 100, 0.5]) {
      const res = await h.request(`/v1/api-keys/${created.id}/spend-cap`, {
        method: 'PUT',
        headers: bearer(created.key),
        json: { monthlySpendCapUsd },
      });
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe('forbidden');
    }
    const { apiKeys } = await (await h.request('/v1/api-keys', { headers: { cookie: owner.cookie } })).json();
    expect(apiKeys[0].monthlySpendCapUsd).toBe(1);
    const byOwner = await h.request(`/v1/api-keys/${created.id}/spend-cap`, {
      method: 'PUT',
      headers: { cookie: owner.cookie },
      json: { monthlySpendCapUsd: null },
    });
    expect(byOwner.status).toBe(200);
    expect((await byOwner.json()).monthlySpendCapUsd).toBeNull();
  });

  it("caps a key minted by a capped key at the minter's cap, and keeps a capped key from lifting another's cap", async () => {
    const owner = await signUp(h);
    const minter = await (
      await h.request('/v1/api-keys', {
        method: 'POST',
        headers: { cookie: owner.cookie },
        json: { name: 'capped', scopes: ['keys:manage', 'runs:write'], monthlySpendCapUsd: 2 },
      })
    ).json();
    const mint = async (monthlySpendCapUsd?: number | null) => {
      const res = await h.request('/v1/api-keys', {
        method: 'POST',
        headers: bearer(minter.key),
        json: { name: 'minted', scopes: ['keys:manage'], monthlySpendCapUsd },
      });
      expect(res.status).toBe(201);
      return res.json();
    };
    expect((await mint()).monthlySpendCapUsd).toBe(2);
    expect((await mint(null)).monthlySpendCapUsd).toBe(2);
    expect((await mint(50)).monthlySpendCapUsd).toBe(2);
    const lower = await mint(0.5);
    expect(lower.monthlySpendCapUsd).toBe(0.5);
    // the minted key cannot lift its minter's cap, nor the minter its own child's above its own
    const put = (auth: Record<string, string>, id: string, monthlySpendCapUsd: number | null) =>
      h.request(`/v1/api-keys/${id}/spend-cap`, { method: 'PUT', headers: auth, json: { monthlySpendCapUsd } });
    for (const cap of [null, 3]) {
      for (const [auth, id] of [
        [bearer(lower.key), minter.id],
        [bearer(minter.key), lower.id],
      ] as const) {
        const res = await put(auth, id, cap);
        expect(res.status).toBe(403);
        expect((await res.json()).error.code).toBe('forbidden');
      }
    }
    const within = await put(bearer(minter.key), lower.id, 1.5);
    expect(within.status).toBe(200);
    expect((await within.json()).monthlySpendCapUsd).toBe(1.5);
    const listed = await (await h.request('/v1/api-keys', { headers: { cookie: owner.cookie } })).json();
    expect(listed.apiKeys.find((k: { id: string }) => k.id === minter.id).monthlySpendCapUsd).toBe(2);
    // an uncapped key mints what it asks for; a session is not limited
    const free = await createKey(h, owner, ['keys:manage']);
    const res = await h.request('/v1/api-keys', {
      method: 'POST',
      headers: bearer(free),
      json: { name: 'free', scopes: ['keys:manage'] },
    });
    expect((await res.json()).monthlySpendCapUsd).toBeNull();
  });

  it('pages the list newest first with a cursor, without gaps or repeats', async () => {
    const owner = await signUp(h);
    for (let i = 0; i < 5; i++) await createKey(h, owner, ['runs:read'], `k${i}`);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const qs: string = cursor ? `&cursor=${cursor}` : '';
      const body: { apiKeys: Array<{ name: string }>; nextCursor: string | null } = await (
        await h.request(`/v1/api-keys?limit=2${qs}`, { headers: { cookie: owner.cookie } })
      ).json();
      seen.push(...body.apiKeys.map((k) => k.name));
      cursor = body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['k4', 'k3', 'k2', 'k1', 'k0']);
    const bad = await h.request('/v1/api-keys?cursor=%%%', { headers: { cookie: owner.cookie } });
    expect(bad.status).toBe(400);
  });
});
