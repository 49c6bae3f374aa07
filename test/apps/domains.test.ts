import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { startDnsServer, type DnsServer } from '../helpers/dnsServer';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { startRunStack } from '../helpers/worker';
import { call, newAgent, newApp, type Headers } from './helpers';
import { pollUntil } from '../helpers/poll';

/** A request with a Host header of our choosing (fetch does not let one set it). */
function withHost(
  h: Harness,
  host: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const url = new URL(h.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path, method: init.method ?? 'GET', headers: { ...init.headers, host } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

const host = () => `app-${randomUUID().slice(0, 8)}.example.org`;

// Custom domains: TXT verification through SVC_DNS_SERVERS, one verified app per hostname, Host routing
// (docs/api/apps.md#custom-domains).
describe('app custom domains', () => {
  let dns: DnsServer;
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Headers;
  let agentId: string;
  beforeAll(async () => {
    dns = await startDnsServer({});
    const stack = await startRunStack({ dnsServers: [dns.address], appRatePerMin: 10_000 });
    h = stack.h;
    stop = stack.stop;
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['apps:manage', 'agents:write']));
    agentId = await newAgent(h, auth);
  }, 120_000);
  afterAll(async () => {
    await stop();
    await dns.close();
  });

  it('adds a pending domain, verifies it from its TXT record and removes it', async () => {
    const app = await newApp(h, auth, agentId);
    const name = host();
    const added = await ok(call(h, 'POST', `/v1/apps/${app.id}/domains`, auth, { hostname: name }), 201);
    expect(added).toEqual({
      hostname: name,
      status: 'pending',
      verification: { type: 'TXT', name: `_svc-verify.${name}`, value: expect.stringMatching(/^svc-verify=/) },
      verifiedAt: null,
      createdAt: expect.any(String),
    });
    const verify = () => call(h, 'POST', `/v1/apps/${app.id}/domains/${name}/verify`, auth);

    // no record at all
    const missing = await ok(verify(), 200);
    expect(missing).toMatchObject({ status: 'pending', check: { ok: false } });
    expect(dns.queries).toContainEqual({ name: `_svc-verify.${name}`, type: 'TXT' });
    // a record with another value
    dns.table[`_svc-verify.${name}`] = { TXT: ['svc-verify=someone-else'] };
    expect(await ok(verify(), 200)).toMatchObject({ status: 'pending', check: { ok: false } });
    // a server that does not answer
    dns.table[`_svc-verify.${name}`] = { silent: true };
    expect(await ok(verify(), 200)).toMatchObject({ status: 'pending', check: { ok: false } });
    // the right value among others
    dns.table[`_svc-verify.${name}`] = { TXT: ['v=spf1 -all', added.verification.value] };
    const verified = await ok(verify(), 200);
    expect(verified).toMatchObject({ status: 'verified', verifiedAt: expect.any(String), check: { ok: true } });
    expect((await ok(call(h, 'GET', `/v1/apps/${app.id}`, auth), 200)).domains).toEqual([
      {
        hostname: name,
        status: 'verified',
        verification: added.verification,
        verifiedAt: verified.verifiedAt,
        createdAt: added.createdAt,
      },
    ]);

    expect((await call(h, 'DELETE', `/v1/apps/${app.id}/domains/${name}`, auth)).status).toBe(204);
    await error(call(h, 'DELETE', `/v1/apps/${app.id}/domains/${name}`, auth), 404, 'not_found');
    await error(call(h, 'POST', `/v1/apps/${app.id}/domains/${name}/verify`, auth), 404, 'not_found');
  });

  /** The statuses of an app's domains, as its owner reads them. */
  const statusesOf = async (appId: string, as: Headers): Promise<string[]> =>
    (await ok(call(h, 'GET', `/v1/apps/${appId}`, as), 200)).domains.map((d: { status: string }) => d.status);

  it('lets no pending claim hold a hostname: the app that proves its TXT record gets it, one app at a time', async () => {
    // the first to add a hostname it does not own (a squatter) keeps nobody out
    const squatter = await newApp(h, auth, agentId, { name: 'Squatter app' });
    await ok(call(h, 'POST', `/v1/apps/${squatter.id}/publish`, auth), 200);
    const name = host();
    const theirClaim = await ok(call(h, 'POST', `/v1/apps/${squatter.id}/domains`, auth, { hostname: name }), 201);
    await error(call(h, 'POST', `/v1/apps/${squatter.id}/domains`, auth, { hostname: name }), 409, 'conflict');

    const other = await signUp(h);
    const key = bearer(await createKey(h, other, ['apps:manage', 'agents:write']));
    const owners = await newApp(h, key, await newAgent(h, key), { name: 'Owner app' });
    await ok(call(h, 'POST', `/v1/apps/${owners.id}/publish`, key), 200);
    const ownClaim = await ok(call(h, 'POST', `/v1/apps/${owners.id}/domains`, key, { hostname: name }), 201);
    expect(ownClaim.status).toBe('pending');
    expect(ownClaim.verification.value).not.toBe(theirClaim.verification.value);
    // each workspace sees and touches its own claim only
    await error(call(h, 'POST', `/v1/apps/${squatter.id}/domains/${name}/verify`, key), 404, 'not_found');
    await error(call(h, 'DELETE', `/v1/apps/${squatter.id}/domains/${name}`, key), 404, 'not_found');
    await error(call(h, 'POST', `/v1/apps/${squatter.id}/domains`, key, { hostname: host() }), 404, 'not_found');

    const verify = (appId: string, as: Headers) =>
      ok(call(h, 'POST', `/v1/apps/${appId}/domains/${name}/verify`, as), 200);
    const served = async () => (await withHost(h, name, '/')).text;

    // the DNS holds the owner's value: only the owner's claim verifies, and the hostname serves its app
    dns.table[`_svc-verify.${name}`] = { TXT: [ownClaim.verification.value] };
    expect(await verify(squatter.id, auth)).toMatchObject({ status: 'pending', check: { ok: false } });
    expect(await verify(owners.id, key)).toMatchObject({ status: 'verified', check: { ok: true } });
    expect(await served()).toContain('<h1>Owner app</h1>');
    expect(await statusesOf(squatter.id, auth)).toEqual(['pending']);

    // whoever controls the DNS moves it: the owner's claim is pending again and the other app is served
    dns.table[`_svc-verify.${name}`] = { TXT: [theirClaim.verification.value] };
    expect(await verify(squatter.id, auth)).toMatchObject({ status: 'verified', check: { ok: true } });
    expect(await statusesOf(owners.id, key)).toEqual(['pending']);
    expect(await served()).toContain('<h1>Squatter app</h1>');

    // removed, the claim gives the hostname back to the DNS: the owner's record verifies again
    expect((await call(h, 'DELETE', `/v1/apps/${squatter.id}/domains/${name}`, auth)).status).toBe(204);
    expect((await withHost(h, name, '/')).status).toBe(404);
    dns.table[`_svc-verify.${name}`] = { TXT: [ownClaim.verification.value] };
    expect(await verify(owners.id, key)).toMatchObject({ status: 'verified', check: { ok: true } });
    expect(await served()).toContain('<h1>Owner app</h1>');
    await ok(call(h, 'POST', `/v1/apps/${squatter.id}/domains`, auth, { hostname: name }), 201);
  });

  it('verifies one claim of a hostname at a time when several apps prove it at once', async () => {
    const name = host();
    const apps = await Promise.all(Array.from({ length: 6 }, () => newApp(h, auth, agentId)));
    const claims = await Promise.all(
      apps.map((app) => ok(call(h, 'POST', `/v1/apps/${app.id}/domains`, auth, { hostname: name }), 201)),
    );
    dns.table[`_svc-verify.${name}`] = { TXT: claims.map((c) => c.verification.value) };
    const checks = await Promise.all(
      apps.map((app) => ok(call(h, 'POST', `/v1/apps/${app.id}/domains/${name}/verify`, auth), 200)),
    );
    expect(checks.map((c) => c.check.ok)).toEqual(apps.map(() => true));
    const states = (await Promise.all(apps.map((app) => statusesOf(app.id, auth)))).flat();
    expect(states.filter((s) => s === 'verified')).toHaveLength(1);
    expect(states.filter((s) => s === 'pending')).toHaveLength(5);
  });

  it('validates hostnames', async () => {
    const app = await newApp(h, auth, agentId);
    for (const hostname of [
      'localhost',
      'UPPER.example.com',
      'a..b.com',
      '-a.example.com',
      'x',
      '1.2.3.4',
      'a b.com',
    ]) {
      await error(call(h, 'POST', `/v1/apps/${app.id}/domains`, auth, { hostname }), 400, 'validation_error');
    }
  });

  it("serves a verified domain's app at / to requests with that Host", async () => {
    const app = await newApp(h, auth, agentId, { name: 'Custom domain app' });
    await ok(call(h, 'POST', `/v1/apps/${app.id}/publish`, auth), 200);
    const name = host();
    const added = await ok(call(h, 'POST', `/v1/apps/${app.id}/domains`, auth, { hostname: name }), 201);

    // pending: nothing served there
    expect((await withHost(h, name, '/')).status).toBe(404);
    dns.table[`_svc-verify.${name}`] = { TXT: [added.verification.value] };
    await ok(call(h, 'POST', `/v1/apps/${app.id}/domains/${name}/verify`, auth), 200);

    const form = await withHost(h, name, '/');
    expect(form.status).toBe(200);
    expect(form.headers['x-request-id']).toBeTruthy();
    expect(form.text).toContain('<h1>Custom domain app</h1>');
    expect(form.text).toContain('action="/runs"');

    const posted = await withHost(h, name, '/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'topic=custom',
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toMatch(/^\/runs\/[0-9a-f-]{36}\?token=/);
    const status = await pollUntil(
      30_000,
      async () =>
        JSON.parse(
          (await withHost(h, name, posted.headers.location!, { headers: { accept: 'application/json' } })).text,
        ),
      (s) => s.status === 'succeeded',
      'the run through the custom domain',
    );
    expect(status).toMatchObject({ status: 'succeeded', output: { echo: { topic: 'custom' } } });

    // the service's own routes are untouched by the Host header
    expect((await withHost(h, name, '/healthz')).status).toBe(200);
    // paused: the domain serves nothing
    await ok(call(h, 'POST', `/v1/apps/${app.id}/pause`, auth), 200);
    expect((await withHost(h, name, '/')).status).toBe(404);
    // another host gets no app at /
    expect((await withHost(h, host(), '/')).status).toBe(404);
  });
});
