import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { runAdmin } from '../../scripts/admin';
import { startApi, type Harness } from '../helpers/harness';
import { bearer, signUp } from '../helpers/factories';
import { pollUntil } from '../helpers/poll';

// The operator CLI (scripts/admin.ts), checked through what a user then sees over HTTP.
describe('operator CLI', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  it('keys:create prints a working key once; workspace:plan changes the rate limit', async () => {
    const owner = await signUp(h);
    const key = await runAdmin(h.orm, ['keys:create', owner.workspaceId, 'ops', 'keys:manage,runs:read']);
    expect(key).toMatch(/^svc_live_/);
    const res = await h.request('/v1/api-keys', { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe('30');
    expect((await res.json()).apiKeys[0]).toMatchObject({ name: 'ops', scopes: ['keys:manage', 'runs:read'] });
    await runAdmin(h.orm, ['workspace:plan', owner.workspaceId, 'business']);
    // The CLI is another process: the API hears of the change through PostgreSQL, within about a second
    // (docs/api/limits.md), not necessarily before its next request.
    const after = await pollUntil(
      1000,
      () => h.request('/v1/api-keys', { headers: bearer(key) }),
      (r) => r.headers.get('ratelimit-limit') === '300',
    );
    expect(after.headers.get('ratelimit-limit')).toBe('300');
  });

  it('user:verify marks the e-mail verified; credits:set sets the balance through the ledger', async () => {
    const owner = await signUp(h);
    await runAdmin(h.orm, ['user:verify', owner.email.toUpperCase()]);
    const me = await (await h.request('/v1/console/me', { headers: { cookie: owner.cookie } })).json();
    expect(me.user.emailVerified).toBe(true);
    await runAdmin(h.orm, ['credits:set', owner.workspaceId, '12.5']);
    const conn = h.orm.em.fork().getConnection();
    const [ws] = await conn.execute('select credit_balance_micros from workspaces where id = ?', [owner.workspaceId]);
    const [sum] = await conn.execute('select sum(amount_micros) as total from ledger_entries where workspace_id = ?', [
      owner.workspaceId,
    ]);
    expect(Number(ws.credit_balance_micros)).toBe(12_500_000);
    expect(Number(sum.total)).toBe(12_500_000);
  });

  it('refuses bad input without changing anything', async () => {
    const owner = await signUp(h);
    await expect(runAdmin(h.orm, ['keys:create', owner.workspaceId, 'x', 'runs:*'])).rejects.toThrow(/unknown scope/);
    await expect(runAdmin(h.orm, ['workspace:plan', owner.workspaceId, 'platinum'])).rejects.toThrow(/plan must be/);
    await expect(runAdmin(h.orm, ['credits:set', owner.workspaceId, '-1'])).rejects.toThrow(/non-negative/);
    await expect(runAdmin(h.orm, ['user:verify', 'nobody@example.com'])).rejects.toThrow(/no user/);
    await expect(runAdmin(h.orm, ['nope'])).rejects.toThrow(/unknown command/);
  });

  it('runs as `npm run admin` and exits 2 with usage on a bad command', async () => {
    const run = promisify(execFile);
    const err = await run('npx', ['tsx', 'scripts/admin.ts', 'bogus'], { env: process.env }).catch((e) => e);
    expect(err.code).toBe(2);
    expect(err.stderr).toContain('usage: npm run admin');
  });
});
