import { randomUUID } from 'node:crypto';
import { startApi, type Harness } from '../helpers/harness';
import { createAgent } from '../helpers/runs';
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

  it('never contain a token of a credential-free path', async () => {
    const account = await signUp(h);
    const auth = bearer(await createKey(h, account, ['flows:read', 'flows:manage', 'agents:read', 'agents:write']));
    const agent = await createAgent(h, auth, {});
    const res = await h.request('/v1/flows', {
      method: 'POST',
      headers: auth,
      json: {
        name: 'Hooked',
        trigger: { type: 'webhook' },
        steps: [{ name: 'a', type: 'agent', agentId: agent.id, input: { text: 'hi' } }],
      },
    });
    expect(res.status).toBe(201);
    const hookToken = new URL((await res.json()).webhookUrl).pathname.split('/').pop()!;
    const shareToken = `share-${randomUUID()}`;
    const statusToken = `status-${randomUUID()}`;
    const before = h.logs.length;
    await h.request(`/hooks/flows/${hookToken}`, { method: 'POST', json: {} });
    await h.request(`/shared/runs/${shareToken}`);
    await h.request(`/shared/runs/${shareToken}/events`);
    await h.request(`/apps/some-app/runs/${randomUUID()}?token=${statusToken}`);
    await h.request(`/v1/runs?token=${statusToken}`, { headers: auth });

    const lines = h.logs.slice(before).join('\n');
    expect(lines).toContain('/hooks/flows/:redacted');
    expect(lines).toContain('/shared/runs/:redacted');
    for (const token of [hookToken, shareToken, statusToken]) expect(lines).not.toContain(token);
  });
});
