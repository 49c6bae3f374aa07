import { startApi, type Harness } from '../helpers/harness';
import { pollUntil } from '../helpers/poll';
import { clientSubject } from '../../api/middleware/rateLimit';
import { bearer, createKey, freshRateWindow, sessionCookie, setPlan, signUp } from '../helpers/factories';

// docs/api/limits.md: per-key per-minute limits from the plan, in a store every replica shares.
describe('per-key rate limit', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  const burst = async (target: Harness, key: string, n: number) => {
    const out: Response[] = [];
    for (let i = 0; i < n; i++) out.push(await target.request('/v1/api-keys', { headers: bearer(key) }));
    return out;
  };

  it('allows the free_trial plan 30 requests a minute, then 429 with Retry-After and RateLimit-* headers', async () => {
    const owner = await signUp(h);
    const key = await createKey(h, owner, ['keys:manage']);
    await freshRateWindow(20);
    const ok = await burst(h, key, 30);
    expect(ok.map((r) => r.status)).toEqual(Array(30).fill(200));
    expect(ok[0].headers.get('ratelimit-limit')).toBe('30');
    expect(ok[0].headers.get('ratelimit-remaining')).toBe('29');
    expect(ok[29].headers.get('ratelimit-remaining')).toBe('0');
    const reset = Number(ok[29].headers.get('ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(reset).toBeLessThanOrEqual(60);

    const limited = await h.request('/v1/api-keys', { headers: bearer(key) });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: { code: 'rate_limited', message: 'Rate limit exceeded' } });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');

    // the limit is per key: a sibling key of the same workspace is unaffected, and so are sessions (counted
    // by their own limit, which the harness sets high)
    const sibling = await createKey(h, owner, ['keys:manage']);
    expect((await h.request('/v1/api-keys', { headers: bearer(sibling) })).status).toBe(200);
    const session = await h.request('/v1/api-keys', { headers: { cookie: owner.cookie } });
    expect(session.status).toBe(200);
    expect(session.headers.get('ratelimit-limit')).toBe(String(h.config.sessionRatePerMin));
  });

  it('takes the limit from the workspace plan', async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'starter');
    const key = await createKey(h, owner, ['keys:manage']);
    await freshRateWindow(20);
    const responses = await burst(h, key, 61);
    expect(responses[0].headers.get('ratelimit-limit')).toBe('60');
    expect(responses.filter((r) => r.status === 200)).toHaveLength(60);
    expect(responses[60].status).toBe(429);
    for (const [plan, limit] of [
      ['business', '300'],
      ['scale', '1200'],
    ] as const) {
      await setPlan(h, owner.workspaceId, plan);
      const other = await createKey(h, owner, ['keys:manage']);
      expect((await h.request('/v1/api-keys', { headers: bearer(other) })).headers.get('ratelimit-limit')).toBe(limit);
    }
  });

  it('counts across API replicas: two processes share one counter per key, and idle leases go back', async () => {
    const replica = await startApi();
    try {
      const owner = await signUp(h);
      const key = await createKey(h, owner, ['keys:manage']);
      const keyId = (await (await h.request('/v1/api-keys', { headers: { cookie: owner.cookie } })).json()).apiKeys[0]
        .id;
      const counted = async () =>
        (
          await h.orm.em
            .fork()
            .getConnection()
            .execute(`select coalesce(sum(count), 0)::int as n from rate_limit_buckets where bucket = ?`, [
              `key:${keyId}`,
            ])
        )[0].n;
      await freshRateWindow(20);
      const first = await burst(h, key, 15);
      // the tokens h leased and did not spend go back to the shared counter once idle
      await pollUntil(5000, counted, (n) => n === 15);
      const second = await burst(replica, key, 15);
      expect([...first, ...second].every((r) => r.status === 200)).toBe(true);
      expect(second[14].headers.get('ratelimit-remaining')).toBe('0');
      expect((await h.request('/v1/api-keys', { headers: bearer(key) })).status).toBe(429);
      expect((await replica.request('/v1/api-keys', { headers: bearer(key) })).status).toBe(429);
    } finally {
      await replica.close();
    }
  });

  it('admits exactly the limit of parallel requests spread over two replicas, the rest 429 with Retry-After', async () => {
    const replica = await startApi();
    try {
      const owner = await signUp(h);
      const key = await createKey(h, owner, ['keys:manage']);
      await freshRateWindow(20);
      const all = await Promise.all(
        Array.from({ length: 60 }, (_, i) => (i % 2 ? replica : h).request('/v1/api-keys', { headers: bearer(key) })),
      );
      const ok = all.filter((r) => r.status === 200);
      const limited = all.filter((r) => r.status === 429);
      expect(ok).toHaveLength(30);
      expect(limited).toHaveLength(30);
      for (const r of limited) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      for (const r of ok) {
        const remaining = Number(r.headers.get('ratelimit-remaining'));
        expect(remaining).toBeGreaterThanOrEqual(0);
        expect(remaining).toBeLessThan(30);
      }
      // a further burst on either replica is refused too: the window's allowance is spent
      for (const api of [h, replica])
        expect((await api.request('/v1/api-keys', { headers: bearer(key) })).status).toBe(429);
    } finally {
      await replica.close();
    }
  });

  it('rate-limits requests a key is not allowed to make, too (a scan costs quota)', async () => {
    const owner = await signUp(h);
    const key = await createKey(h, owner, ['runs:read']);
    const res = await h.request('/v1/api-keys', { headers: bearer(key) });
    expect(res.status).toBe(403);
    expect(res.headers.get('ratelimit-remaining')).toBe('29');
  });
});

// docs/api/limits.md: console sessions are limited per user per minute (SVC_SESSION_RATE_PER_MIN), with the
// same answer and headers as keys, in the same shared store.
describe('per-user session rate limit', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi({ sessionRatePerMin: 5 });
  });
  afterAll(() => h.close());

  const me = (target: Harness, cookie: string) => target.request('/v1/console/me', { headers: { cookie } });

  it('allows SVC_SESSION_RATE_PER_MIN requests a minute per user, then 429 with Retry-After and RateLimit-*', async () => {
    const user = await signUp(h);
    await freshRateWindow(20);
    const ok: Response[] = [];
    for (let i = 0; i < 5; i++) ok.push(await me(h, user.cookie));
    expect(ok.map((r) => r.status)).toEqual(Array(5).fill(200));
    expect(ok[0].headers.get('ratelimit-limit')).toBe('5');
    expect(ok[0].headers.get('ratelimit-remaining')).toBe('4');
    expect(ok[4].headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(ok[4].headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);

    const limited = await me(h, user.cookie);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: { code: 'rate_limited', message: 'Rate limit exceeded' } });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    // writes are counted too
    const write = await h.request('/v1/api-keys', {
      method: 'POST',
      headers: { cookie: user.cookie },
      json: { name: 'k', scopes: ['runs:read'] },
    });
    expect(write.status).toBe(429);

    // per user: a second session of the same user (signing in is not a session request) shares the count
    const signIn = await h.request('/v1/console/auth/sign-in', {
      method: 'POST',
      json: { email: user.email, password: user.password },
    });
    expect(signIn.status).toBe(200);
    expect((await me(h, sessionCookie(signIn))).status).toBe(429);
    // ... and another user is unaffected
    const other = await signUp(h);
    expect((await me(h, other.cookie)).status).toBe(200);
  });

  it('counts across API replicas in the shared store', async () => {
    const replica = await startApi({ sessionRatePerMin: 5 });
    try {
      const user = await signUp(h);
      await freshRateWindow(20);
      for (let i = 0; i < 3; i++) expect((await me(h, user.cookie)).status).toBe(200);
      for (let i = 0; i < 2; i++) expect((await me(replica, user.cookie)).status).toBe(200);
      expect((await me(replica, user.cookie)).status).toBe(429);
      expect((await me(h, user.cookie)).status).toBe(429);
    } finally {
      await replica.close();
    }
  });
});

describe('the client a per-IP limit counts', () => {
  it('is an IPv4 address itself, an IPv6 address its /64', () => {
    expect(clientSubject('203.0.113.7')).toBe('203.0.113.7');
    expect(clientSubject('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientSubject('203.0.113.7:51234')).toBe('203.0.113.7');
    expect(clientSubject('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientSubject('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientSubject('[2001:db8:1:2::9]:443')).toBe('2001:db8:1:2::/64');
    expect(clientSubject('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientSubject('not an address')).toBe('raw:not an address');
  });
});
