import { stat } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { startApi, type Harness } from '../helpers/harness';
import { mailTo } from '../helpers/mailDrop';
import { freshRateWindow, sessionCookie, signUp, uniqueEmail } from '../helpers/factories';

// Console accounts (docs/api/identity.md): sign-up, sign-in, sign-out, me, verify-email, and their per-IP limits.
describe('console auth', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  it('signs up: user, free_trial workspace with trial credits, owner role, session cookie', async () => {
    const email = uniqueEmail('Mixed.Case');
    const res = await h.request('/v1/console/auth/sign-up', {
      method: 'POST',
      json: { email, password: 'correct horse', name: 'Ada' },
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      user: { id: expect.any(String), email: email.toLowerCase(), name: 'Ada', emailVerified: false },
      workspace: { id: expect.any(String), name: "Ada's workspace", plan: 'free_trial', role: 'owner' },
    });
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^svc_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toContain('Secure');
    // the grant is real: the workspace balance equals SVC_TRIAL_CREDITS_USD (default 5)
    const rows = await h.orm.em
      .fork()
      .getConnection()
      .execute('select credit_balance_micros from workspaces where id = ?', [body.workspace.id]);
    expect(Number(rows[0].credit_balance_micros)).toBe(h.config.trialCreditsUsd * 1_000_000);
  });

  it('marks the cookie Secure when SVC_COOKIE_SECURE=1', async () => {
    const secure = await startApi({ cookieSecure: true });
    try {
      const res = await secure.request('/v1/console/auth/sign-up', {
        method: 'POST',
        json: { email: uniqueEmail(), password: 'password123' },
      });
      expect(res.headers.get('set-cookie')).toContain('Secure');
    } finally {
      await secure.close();
    }
  });

  it('refuses a second sign-up with the same e-mail (any case) with 409 auth.email_taken', async () => {
    const account = await signUp(h);
    const res = await h.request('/v1/console/auth/sign-up', {
      method: 'POST',
      json: { email: account.email.toUpperCase(), password: 'another password' },
    });
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe('auth.email_taken');
  });

  it('enforces password length 8..200', async () => {
    for (const password of ['1234567', 'x'.repeat(201)]) {
      const res = await h.request('/v1/console/auth/sign-up', {
        method: 'POST',
        json: { email: uniqueEmail(), password },
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error.details.issues[0].path).toBe('password');
    }
  });

  it('signs in with the right password; wrong password and unknown e-mail get the same 401', async () => {
    const account = await signUp(h);
    const ok = await h.request('/v1/console/auth/sign-in', {
      method: 'POST',
      json: { email: account.email, password: account.password },
    });
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body.user.id).toBe(account.userId);
    expect(body.workspace).toMatchObject({ id: account.workspaceId, role: 'owner' });
    expect(sessionCookie(ok)).not.toBe(account.cookie);

    const wrong = await h.request('/v1/console/auth/sign-in', {
      method: 'POST',
      json: { email: account.email, password: 'wrong password' },
    });
    const unknown = await h.request('/v1/console/auth/sign-in', {
      method: 'POST',
      json: { email: uniqueEmail(), password: 'whatever1' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const [a, b] = [(await wrong.json()).error, (await unknown.json()).error];
    expect(a.code).toBe('auth.invalid_credentials');
    expect(b.code).toBe('auth.invalid_credentials');
    expect(a.message).toBe(b.message);
  });

  it('GET /v1/console/me lists the user and every workspace with its role', async () => {
    const account = await signUp(h, { name: 'Grace' });
    const res = await h.request('/v1/console/me', { headers: { cookie: account.cookie } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      user: { id: account.userId, email: account.email, name: 'Grace', emailVerified: false },
      workspaces: [{ id: account.workspaceId, name: "Grace's workspace", plan: 'free_trial', role: 'owner' }],
    });
  });

  it('signs out: 204, the session is deleted server-side and the cookie stops working', async () => {
    const account = await signUp(h);
    const out = await h.request('/v1/console/auth/sign-out', { method: 'POST', headers: { cookie: account.cookie } });
    expect(out.status).toBe(204);
    const me = await h.request('/v1/console/me', { headers: { cookie: account.cookie } });
    expect(me.status).toBe(401);
    expect((await me.json()).error.code).toBe('unauthorized');
  });

  it('rejects an expired session with 401', async () => {
    const account = await signUp(h);
    await h.orm.em
      .fork()
      .getConnection()
      .execute(`update sessions set expires_at = now() - interval '1 second' where user_id = ?`, [account.userId]);
    const me = await h.request('/v1/console/me', { headers: { cookie: account.cookie } });
    expect(me.status).toBe(401);
  });

  it('verifies the e-mail with the token the mailer sent (to a file of its own without SMTP, never the log)', async () => {
    const account = await signUp(h);
    const { file, text } = await mailTo(h, account.email);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(text).toContain(`To: ${account.email}\n`);
    const token = /token=([A-Za-z0-9_-]+)/.exec(text)![1];
    expect(h.logs.filter((l) => l.includes(token))).toEqual([]);

    const bad = await h.request('/v1/console/auth/verify-email', { method: 'POST', json: { token: randomUUID() } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('validation_error');

    const res = await h.request('/v1/console/auth/verify-email', { method: 'POST', json: { token } });
    expect(res.status).toBe(200);
    expect((await res.json()).user).toMatchObject({ id: account.userId, emailVerified: true });
    const again = await h.request('/v1/console/auth/verify-email', { method: 'POST', json: { token } });
    expect(again.status).toBe(400);
    const me = await (await h.request('/v1/console/me', { headers: { cookie: account.cookie } })).json();
    expect(me.user.emailVerified).toBe(true);
  });
});

describe('sign-in and sign-up rate limits (per client IP)', () => {
  let h: Harness;
  beforeAll(async () => {
    // one trusted proxy hop, so each test is its own client IP, unaffected by other tests' traffic
    h = await startApi({ trustProxyHops: 1, signInRatePerMin: 3, signUpRatePerMin: 2 });
  });
  afterAll(() => h.close());
  // a fresh IPv6 /64 (the unit the limits count IPv6 clients by), and an address in one
  const prefix64 = () => {
    const hex = randomUUID();
    return `2001:db8:${hex.slice(0, 4)}:${hex.slice(4, 8)}`;
  };
  const ip = () => `${prefix64()}::1`;
  const failSignIn = (xff: string) =>
    h.request('/v1/console/auth/sign-in', {
      method: 'POST',
      headers: { 'X-Forwarded-For': xff },
      json: { email: uniqueEmail(), password: 'nope-nope' },
    });

  it('allows SVC_SIGNUP_RATE_PER_MIN sign-ups a minute, then 429 rate_limited with Retry-After', async () => {
    await freshRateWindow();
    const headers = { 'X-Forwarded-For': ip() };
    for (let i = 0; i < 2; i++) {
      const res = await h.request('/v1/console/auth/sign-up', {
        method: 'POST',
        headers,
        json: { email: uniqueEmail(), password: 'password123' },
      });
      expect(res.status).toBe(201);
    }
    const res = await h.request('/v1/console/auth/sign-up', {
      method: 'POST',
      headers,
      json: { email: uniqueEmail(), password: 'password123' },
    });
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await res.json()).error).toMatchObject({ code: 'rate_limited', message: 'Rate limit exceeded' });
    // another client is not affected
    const other = await h.request('/v1/console/auth/sign-up', {
      method: 'POST',
      headers: { 'X-Forwarded-For': ip() },
      json: { email: uniqueEmail(), password: 'password123' },
    });
    expect(other.status).toBe(201);
  });

  it('allows SVC_SIGNIN_RATE_PER_MIN sign-in attempts a minute, counting failures', async () => {
    await freshRateWindow();
    const headers = { 'X-Forwarded-For': ip() };
    for (let i = 0; i < 3; i++) {
      const res = await h.request('/v1/console/auth/sign-in', {
        method: 'POST',
        headers,
        json: { email: uniqueEmail(), password: 'nope-nope' },
      });
      expect(res.status).toBe(401);
    }
    const res = await h.request('/v1/console/auth/sign-in', {
      method: 'POST',
      headers,
      json: { email: uniqueEmail(), password: 'nope-nope' },
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('trusts only the configured hops: rotating the left-most X-Forwarded-For entries does not reset the limit', async () => {
    await freshRateWindow();
    // the proxy appends the address it saw; everything left of it is whatever the client sent
    const client = ip();
    for (let i = 0; i < 3; i++) expect((await failSignIn(`${ip()}, ${ip()}, ${client}`)).status).toBe(401);
    const res = await failSignIn(`${ip()}, ${client}`);
    expect(res.status).toBe(429);
    expect((await res.json()).error).toMatchObject({ code: 'rate_limited', message: 'Rate limit exceeded' });
    // a client naming the limited address in its own part of the header is still counted as itself
    expect((await failSignIn(`${client}, ${ip()}`)).status).toBe(401);
  });

  it('takes the entry SVC_TRUST_PROXY hops from the right, with two proxies in front', async () => {
    const twoHops = await startApi({ trustProxyHops: 2, signInRatePerMin: 3 });
    try {
      await freshRateWindow();
      const client = ip();
      const edge = ip();
      const attempt = (xff: string) =>
        twoHops.request('/v1/console/auth/sign-in', {
          method: 'POST',
          headers: { 'X-Forwarded-For': xff },
          json: { email: uniqueEmail(), password: 'nope-nope' },
        });
      for (let i = 0; i < 3; i++) expect((await attempt(`${ip()}, ${client}, ${edge}`)).status).toBe(401);
      expect((await attempt(`${ip()}, ${client}, ${edge}`)).status).toBe(429);
      // the edge proxy's own address is not the client: another client behind it is unaffected
      expect((await attempt(`${ip()}, ${edge}`)).status).toBe(401);
    } finally {
      await twoHops.close();
    }
  });

  it('counts IPv6 clients by their /64: addresses in one /64 share a limit, another /64 does not', async () => {
    await freshRateWindow();
    const net = prefix64();
    for (const addr of [`${net}::1`, `${net}::2`, `${net}:ffff:ffff:ffff:ffff`]) {
      expect((await failSignIn(addr)).status).toBe(401);
    }
    expect((await failSignIn(`${net}::abcd`)).status).toBe(429);
    expect((await failSignIn(`${prefix64()}::abcd`)).status).toBe(401);
  });
});
