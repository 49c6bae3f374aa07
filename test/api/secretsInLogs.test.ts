import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, signUp } from '../helpers/factories';

// "No secret (API key, password, session token) is ever logged": drive every secret through the API,
// including failures, then read the captured log.
describe('logs', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  it('never contain a password, a session token or an API key', async () => {
    const password = 'Sup3r-Secret-Passw0rd!';
    const account = await signUp(h, { password });
    const token = account.cookie.split('=')[1];
    const key = await createKey(h, account, ['keys:manage']);
    await h.request('/v1/console/auth/sign-in', { method: 'POST', json: { email: account.email, password } });
    await h.request('/v1/console/auth/sign-in', {
      method: 'POST',
      json: { email: account.email, password: `${password}x` },
    });
    await h.request('/v1/api-keys', { headers: bearer(key) });
    await h.request('/v1/api-keys', { headers: bearer(`${key}x`) });
    await h.request('/v1/api-keys?token=' + token, { headers: { cookie: account.cookie } });
    await h.request('/v1/console/me', { headers: bearer(key) });
    await h.request('/v1/console/auth/sign-up', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"email":"${account.email}","password":"${password}"`,
    });

    const all = h.logs.join('\n');
    expect(h.logs.length).toBeGreaterThan(8);
    expect(all).not.toContain(password);
    expect(all).not.toContain(token);
    expect(all).not.toContain(key);
    expect(all).not.toContain(key.slice(9));
  });
});
