import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';

// Subscriptions (docs/api/webhooks.md), with the public-address guard ON.
describe('webhook subscriptions', () => {
  let h: Harness;
  let auth: Record<string, string>;
  beforeAll(async () => {
    h = await startApi({ allowPrivateWebhooks: false });
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['webhooks:manage']));
  });
  afterAll(() => h.close());

  const create = (json: unknown, headers = auth) => h.request('/v1/webhooks', { method: 'POST', headers, json });
  const secret = 'a-very-secret-value-123';

  it('creates, lists and deletes with exactly the documented keys, never the secret', async () => {
    const res = await create({
      url: 'https://8.8.8.8/hook',
      events: ['run.succeeded', 'run.failed', 'run.succeeded'],
      secret,
    });
    expect(res.status).toBe(201);
    const sub = await res.json();
    expect(Object.keys(sub).sort()).toEqual(['createdAt', 'events', 'id', 'status', 'updatedAt', 'url']);
    expect(sub).toMatchObject({
      url: 'https://8.8.8.8/hook',
      events: ['run.succeeded', 'run.failed'],
      status: 'active',
    });
    const list = await (await h.request('/v1/webhooks', { headers: auth })).json();
    expect(list.webhooks).toEqual([sub]);
    expect(JSON.stringify(list)).not.toContain(secret);
    expect(h.logs.join('\n')).not.toContain(secret);
    expect((await h.request(`/v1/webhooks/${sub.id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    expect((await h.request(`/v1/webhooks/${sub.id}`, { method: 'DELETE', headers: auth })).status).toBe(404);
    expect((await (await h.request('/v1/webhooks', { headers: auth })).json()).webhooks).toEqual([]);
  });

  it('validates events and the secret length', async () => {
    for (const body of [
      { url: 'https://8.8.8.8/', events: [], secret },
      { url: 'https://8.8.8.8/', events: ['run.running'], secret },
      { url: 'https://8.8.8.8/', events: ['run.cancelled'], secret },
      { url: 'https://8.8.8.8/', events: ['run.succeeded'], secret: 'x'.repeat(15) },
      { url: 'https://8.8.8.8/', events: ['run.succeeded'], secret: 'x'.repeat(257) },
      { url: 'https://8.8.8.8/', events: ['run.succeeded'] },
    ]) {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe('validation_error');
    }
    expect((await create({ url: 'https://8.8.8.8/', events: ['run.succeeded'], secret: 'x'.repeat(16) })).status).toBe(
      201,
    );
    expect((await create({ url: 'https://8.8.8.8/', events: ['run.succeeded'], secret: 'x'.repeat(256) })).status).toBe(
      201,
    );
  });

  it('needs webhooks:manage', async () => {
    const owner = await signUp(h);
    const other = bearer(await createKey(h, owner, ['runs:read']));
    expect((await create({ url: 'https://8.8.8.8/', events: ['run.failed'], secret }, other)).status).toBe(403);
    expect((await h.request('/v1/webhooks', { headers: other })).status).toBe(403);
  });

  // Every trick to reach a private address: numeric forms, embedded IPv4 in IPv6, special ranges, names, userinfo.
  const hostile = [
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0177.1/',
    'http://0x7f.0.0.1/',
    'http://0x7f000001/',
    'http://0.0.0.0/',
    'http://0/',
    'http://[::]/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[64:ff9b::a00:1]/',
    'http://[2002:7f00:1::]/',
    'http://[2002:c0a8:101::]/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[fd12:3456::1]/',
    'http://[ff02::1]/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://192.0.2.1/',
    'http://198.51.100.1/',
    'http://203.0.113.1/',
    'http://198.18.0.1/',
    'http://240.0.0.1/',
    'http://localhost/',
    'http://LOCALHOST:8080/',
    'http://foo.localhost/',
    'http://localhost./',
    'http://127.0.0.1./',
    'http://user:pass@127.0.0.1/',
    'http://example.com@127.0.0.1/',
    'http://printer.local/',
    'http://db.internal/',
    'ftp://8.8.8.8/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'gopher://8.8.8.8/',
    'not a url',
    'https://no-such-host.invalid/',
    // names the run's own DNS server answers (test/helpers/dnsServer.ts TEST_DNS_TABLE)
    'https://private.test/',
    'https://mixed.test/',
    'https://loopback6.test/',
  ];
  it.each(hostile)('rejects %s with 400 webhook.url_not_public', async (url) => {
    const res = await create({ url, events: ['run.succeeded'], secret });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('webhook.url_not_public');
  });

  it("resolves names through the test run's DNS server on 127.0.0.1, never the machine's resolver", async () => {
    // jest's globalSetup (test/helpers/globalDns.ts) exports SVC_DNS_SERVERS before any test process starts
    expect(h.config.dnsServers.length).toBeGreaterThan(0);
    for (const server of h.config.dnsServers) expect(server).toMatch(/^127\.0\.0\.1:\d+$/);
    // .test is reserved (RFC 6761): a real resolver never answers it, so this 201 is the test server's answer
    for (const url of ['https://example.com/h', 'https://public.test/h']) {
      const res = await create({ url, events: ['run.succeeded'], secret });
      expect(res.status).toBe(201);
      expect((await res.json()).url).toBe(url);
    }
    const unknown = await create({ url: 'https://unknown-name.test/h', events: ['run.succeeded'], secret });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toMatchObject({
      code: 'webhook.url_not_public',
      details: { issues: [{ path: 'url', message: 'hostname unknown-name.test does not resolve' }] },
    });
  });

  it('has nothing stored after all those rejections', async () => {
    const owner = await signUp(h);
    const fresh = bearer(await createKey(h, owner, ['webhooks:manage']));
    expect((await create({ url: 'http://127.0.0.1/', events: ['run.succeeded'], secret }, fresh)).status).toBe(400);
    expect((await (await h.request('/v1/webhooks', { headers: fresh })).json()).webhooks).toEqual([]);
  });

  it('accepts private targets only when SVC_ALLOW_PRIVATE_WEBHOOKS is set', async () => {
    const dev = await startApi({ allowPrivateWebhooks: true });
    try {
      const res = await dev.request('/v1/webhooks', {
        method: 'POST',
        headers: auth,
        json: { url: 'http://127.0.0.1:9/hook', events: ['run.succeeded'], secret },
      });
      expect(res.status).toBe(201);
      const ftp = await dev.request('/v1/webhooks', {
        method: 'POST',
        headers: auth,
        json: { url: 'ftp://127.0.0.1/', events: ['run.failed'], secret },
      });
      expect(ftp.status).toBe(400);
    } finally {
      await dev.close();
    }
  });

  it('pages the subscriptions and their delivery log, even over deliveries stamped within one millisecond', async () => {
    const owner = await signUp(h);
    const mine = bearer(await createKey(h, owner, ['webhooks:manage']));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.unshift(
        (await (await create({ url: `https://8.8.8.8/${i}`, events: ['run.failed'], secret }, mine)).json()).id,
      );
    }
    const first = await (await h.request('/v1/webhooks?limit=2', { headers: mine })).json();
    expect(first.webhooks.map((w: { id: string }) => w.id)).toEqual(ids.slice(0, 2));
    const second = await (await h.request(`/v1/webhooks?limit=2&cursor=${first.nextCursor}`, { headers: mine })).json();
    expect(second).toEqual({ webhooks: [expect.objectContaining({ id: ids[2] })], nextCursor: null });

    // deliveries written by the database clock (microseconds) within one millisecond
    const stamps = ['.123100', '.123400', '.123700', '.123900'].map((us) => `2026-01-01 00:00:00${us}+00`);
    for (const [n, at] of stamps.entries()) {
      await h.orm.em
        .fork()
        .getConnection()
        .execute(
          `insert into webhook_deliveries (id, created_at, updated_at, subscription_id, workspace_id, run_id, type, event_key, body, status)
           values (gen_random_uuid(), ?, ?, ?, ?, gen_random_uuid(), 'run.failed', ?, '{}', 'failed')`,
          [at, at, ids[0], owner.workspaceId, `e${n}`],
        );
    }
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: any = await (
        await h.request(`/v1/webhooks/${ids[0]}/deliveries?limit=1${cursor ? `&cursor=${cursor}` : ''}`, {
          headers: mine,
        })
      ).json();
      seen.push(...page.deliveries.map((d: { id: string }) => d.id));
      cursor = page.nextCursor;
    }
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(4);
  });

  it("answers 404 for another workspace's subscription on every route", async () => {
    const sub = await (await create({ url: 'https://8.8.8.8/theirs', events: ['run.failed'], secret })).json();
    const stranger = bearer(await createKey(h, await signUp(h), ['webhooks:manage']));
    for (const [method, path] of [
      ['DELETE', `/v1/webhooks/${sub.id}`],
      ['GET', `/v1/webhooks/${sub.id}/deliveries`],
      ['POST', `/v1/webhooks/${sub.id}/deliveries/${sub.id}/redeliver`],
    ]) {
      const res = await h.request(path, { method, headers: stranger });
      expect([path, res.status, (await res.json()).error.code]).toEqual([path, 404, 'not_found']);
    }
    expect((await (await h.request('/v1/webhooks', { headers: stranger })).json()).webhooks).toEqual([]);
  });

  it('caps live subscriptions per workspace at SVC_MAX_WEBHOOKS (25) under concurrency; deleted ones do not count', async () => {
    expect(h.config.maxWebhooks).toBe(25);
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const mine = bearer(await createKey(h, owner, ['webhooks:manage']));
    const body = (i: number) => ({ url: `https://8.8.8.8/cap/${i}`, events: ['run.failed'], secret });
    const results = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const res = await create(body(i), mine);
        return { status: res.status, json: await res.json() };
      }),
    );
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 409);
    expect(created).toHaveLength(25);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(r.json.error).toMatchObject({ code: 'conflict', details: { limit: 25 } });
    const listed = await (await h.request('/v1/webhooks?limit=100', { headers: mine })).json();
    expect(listed.webhooks).toHaveLength(25);
    expect(new Set(listed.webhooks.map((w: { id: string }) => w.id))).toEqual(
      new Set(created.map((r) => r.json.id as string)),
    );

    // A deleted subscription frees its slot; another workspace has its own 25.
    expect((await h.request(`/v1/webhooks/${created[0].json.id}`, { method: 'DELETE', headers: mine })).status).toBe(
      204,
    );
    expect((await create(body(100), mine)).status).toBe(201);
    expect((await create(body(101), mine)).status).toBe(409);
    expect((await create(body(102))).status).toBe(201);
  });
});
