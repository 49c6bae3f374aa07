import Koa from 'koa';
import pg from 'pg';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger } from '../../platform/logger';
import { errorHandler } from '../../api/middleware/errors';
import { requestId } from '../../api/middleware/requestId';
import { startApi, type Harness } from '../helpers/harness';
import { signUp, uniqueEmail } from '../helpers/factories';

// docs/api/errors.md and the conventions of docs/README.md: the envelope, request ids and every HTTP-level failure.
describe('HTTP foundation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  const expectEnvelope = async (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body.error.code).toBe(code);
    expect(typeof body.error.message).toBe('string');
    expect(body.error.requestId).toBe(res.headers.get('x-request-id'));
    expect(JSON.stringify(body)).not.toMatch(/at .+\.(ts|js):\d+/);
    return body;
  };

  it('echoes a caller X-Request-Id and generates one otherwise', async () => {
    const echoed = await h.request('/healthz', { headers: { 'X-Request-Id': 'trace-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
    const generated = await h.request('/healthz');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const failing = await h.request('/nope', { headers: { 'X-Request-Id': 'trace-404' } });
    expect((await failing.json()).error.requestId).toBe('trace-404');
  });

  it('answers unknown routes with 404 not_found', async () => {
    await expectEnvelope(await h.request('/v1/does-not-exist'), 404, 'not_found');
  });

  it('answers a wrong method with 405 and an Allow header', async () => {
    const res = await h.request('/healthz', { method: 'DELETE' });
    expect(res.headers.get('allow')).toBe('GET');
    await expectEnvelope(res, 405, 'not_found');
  });

  it('keeps a literal path its own: another method there is 405, not the parameter route beside it', async () => {
    // GET /v1/knowledge/search is declared; PATCH/DELETE exist only for /v1/knowledge/:id
    for (const method of ['PATCH', 'DELETE']) {
      const res = await h.request('/v1/knowledge/search?q=x', { method });
      expect(res.headers.get('allow')).toBe('GET');
      await expectEnvelope(res, 405, 'not_found');
    }
    const options = await h.request('/v1/knowledge/search', { method: 'OPTIONS' });
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'GET']);
  });

  it('rejects invalid JSON with 400 invalid_json', async () => {
    const res = await h.request('/v1/console/auth/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email": ',
    });
    await expectEnvelope(res, 400, 'invalid_json');
  });

  it('rejects a non-JSON body with 415 unsupported_media_type', async () => {
    const res = await h.request('/v1/console/auth/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'email=a@b.c',
    });
    await expectEnvelope(res, 415, 'unsupported_media_type');
  });

  it('rejects a body over SVC_MAX_JSON_BYTES with 413 payload_too_large', async () => {
    const small = await startApi({ maxJsonBytes: 1024 });
    try {
      const res = await small.request('/v1/console/auth/sign-up', {
        method: 'POST',
        json: { email: uniqueEmail(), password: 'x'.repeat(2000) },
      });
      await expectEnvelope(res, 413, 'payload_too_large');
      // a chunked body without Content-Length is measured while reading
      const chunked = await small.request('/v1/console/auth/sign-up', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Blob([JSON.stringify({ email: uniqueEmail(), password: 'y'.repeat(4000) })]).stream(),
        duplex: 'half',
      } as RequestInit);
      await expectEnvelope(chunked, 413, 'payload_too_large');
    } finally {
      await small.close();
    }
  });

  it('reports schema failures as 400 validation_error with details.issues', async () => {
    const res = await h.request('/v1/console/auth/sign-up', {
      method: 'POST',
      json: { email: 'not-an-email', password: 'short' },
    });
    const body = await expectEnvelope(res, 400, 'validation_error');
    const paths = body.error.details.issues.map((i: { path: string }) => i.path).sort();
    expect(paths).toEqual(['email', 'password']);
    for (const issue of body.error.details.issues) expect(typeof issue.message).toBe('string');
  });

  it('validates query strings too', async () => {
    const account = await signUp(h);
    const res = await h.request('/v1/api-keys?limit=1000', { headers: { cookie: account.cookie } });
    const body = await expectEnvelope(res, 400, 'validation_error');
    expect(body.error.details.issues[0].path).toBe('limit');
  });

  it('answers dates PostgreSQL cannot hold with 400 validation_error, never 500', async () => {
    const account = await signUp(h);
    const headers = { cookie: account.cookie };
    for (const [from, to] of [
      ['0000-00-00', '0000-00-00'],
      ['2026-02-30', '2026-03-01'],
      ['0020-02-29', '2026-01-01'],
      ['2026-01-01', '2026-13-01'],
    ]) {
      const body = await expectEnvelope(
        await h.request(`/v1/usage?from=${from}&to=${to}`, { headers }),
        400,
        'validation_error',
      );
      expect(body.error.details.issues.length).toBeGreaterThan(0);
    }
    const ok = await h.request('/v1/usage?from=2024-02-29&to=9999-12-31', { headers });
    expect(ok.status).toBe(200);
  });

  it('decodes cursors the same way on every list: anything but `<epoch ms>_<uuid>` is 400', async () => {
    const account = await signUp(h);
    const headers = { cookie: account.cookie };
    const agent = await (
      await h.request('/v1/agents', { method: 'POST', headers, json: { name: 'cursor probe' } })
    ).json();
    const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const at = new Date().toISOString();
    const bad = [
      cursor([at, 'not-a-uuid']),
      cursor([at, "'; select 1 --"]),
      cursor(['0000-01-01T00:00:00.000Z', crypto.randomUUID()]),
      cursor(['-271821-04-20T00:00:00.000Z', crypto.randomUUID()]),
      cursor(['2026-01-01', crypto.randomUUID()]),
      cursor([at, crypto.randomUUID(), 'extra']),
      cursor({ at, id: crypto.randomUUID() }),
      'garbage',
      `${Date.now()}_not-a-uuid`,
      `-1_${crypto.randomUUID()}`,
      `099_${crypto.randomUUID()}`,
      `123456789012345_${crypto.randomUUID()}`,
      `${Date.now()}_${crypto.randomUUID()}_x`,
    ];
    const lists = ['/v1/agents', '/v1/api-keys', '/v1/files', '/v1/folders', '/v1/runs', '/v1/webhooks'];
    lists.push(`/v1/agents/${agent.id}/versions`);
    for (const list of lists) {
      for (const c of bad) {
        const body = await expectEnvelope(await h.request(`${list}?cursor=${c}`, { headers }), 400, 'validation_error');
        expect(body.error.details.issues).toEqual([{ path: 'cursor', message: 'Invalid cursor' }]);
      }
      // any cursor of the documented shape is a position to continue after, even one no list ever served
      for (const c of [
        `${Date.now()}_${crypto.randomUUID()}`,
        `0_${crypto.randomUUID()}`,
        `99999999999999_${crypto.randomUUID()}`,
      ]) {
        const good = await h.request(`${list}?cursor=${c}`, { headers });
        expect([list, c, good.status]).toEqual([list, c, 200]);
      }
    }
  });

  it('serves /healthz, /readyz and /v1/openapi.json without credentials', async () => {
    expect(await (await h.request('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await h.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', temporal: 'ok' } });
    const doc = await (await h.request('/v1/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    const create = doc.paths['/v1/api-keys'].post;
    expect(create['x-scope']).toBe('keys:manage');
    const scopesSchema = create.requestBody.content['application/json'].schema.properties.scopes;
    expect(scopesSchema.items.enum).toContain('runs:read');
    expect(doc.paths['/v1/api-keys/{id}'].delete.parameters[0]).toMatchObject({
      name: 'id',
      in: 'path',
      required: true,
    });
  });
});

describe('dependency outages', () => {
  it('answers 503 unavailable with Retry-After when PostgreSQL is unreachable', async () => {
    const down = await startApi({ databaseUrl: 'postgres://postgres@127.0.0.1:9/none' });
    try {
      const res = await down.request('/v1/api-keys', { headers: { authorization: 'Bearer svc_live_abc' } });
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await res.json()).error.code).toBe('unavailable');
      const ready = await down.request('/readyz');
      expect(ready.status).toBe(503);
      const body = await ready.json();
      expect(body.error.code).toBe('unavailable');
      // names the failing dependency, never its error text (which carries the address and user)
      expect(body.error.details).toEqual({ checks: { database: 'failed', temporal: 'ok' } });
      expect(body.error.message).toBe('Not ready: database');
      expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|:9\b|ECONNREFUSED|postgres/i);
      expect(down.logs.join('\n')).toContain('readiness check failed');
    } finally {
      await down.close();
    }
  });

  it('reports Temporal down on /readyz with 503 and Retry-After', async () => {
    const down = await startApi({ temporal: { address: '127.0.0.1:9', namespace: 'default', taskQueue: 'runs' } });
    try {
      const res = await down.request('/readyz');
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      const body = await res.json();
      expect(body.error.details).toEqual({ checks: { database: 'ok', temporal: 'failed' } });
      expect(body.error.message).toBe('Not ready: temporal');
      expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|:9\b|ECONNREFUSED|connect|deadline/i);
    } finally {
      await down.close();
    }
  });
});

describe('error middleware', () => {
  it('answers 503 unavailable, never 500, with the errors of a PostgreSQL connection that broke mid-use', async () => {
    // Real driver errors: a connection whose server process is terminated, then used twice.
    const victim = new pg.Client({ connectionString: process.env.DATABASE_URL });
    victim.on('error', () => undefined);
    await victim.connect();
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const { rows } = await victim.query('select pg_backend_pid() as pid');
    await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
    await admin.end();
    // Which error the first queries get depends on when the driver notices the close (the server's
    // FATAL message, ECONNRESET, ...); keep using the client until it calls itself not queryable.
    const broken: Error[] = [];
    while (broken.length < 10 && !/not queryable/.test(broken.at(-1)?.message ?? ''))
      broken.push(
        await victim.query('select 1').then(
          () => new Error('no failure'),
          (e) => e,
        ),
      );
    await victim.end().catch(() => undefined);
    expect(broken.at(-1)!.message).toMatch(/not queryable/);

    const app = new Koa();
    app.use(requestId() as Koa.Middleware);
    app.use(errorHandler(createLogger('silent')) as Koa.Middleware);
    app.use((ctx) => {
      throw broken[Number(ctx.query.i)];
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      for (const i of broken.keys()) {
        const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x?i=${i}`);
        expect([i, res.status]).toEqual([i, 503]);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect((await res.json()).error.code).toBe('unavailable');
      }
    } finally {
      server.close();
    }
  });

  it('turns an unexpected exception into 500 internal_error, logged with the request id, no stack in the body', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }));
    const app = new Koa();
    app.use(requestId() as Koa.Middleware);
    app.use(errorHandler(logger) as Koa.Middleware);
    app.use(() => {
      throw new TypeError('boom: secret internals');
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`, {
        headers: { 'X-Request-Id': 'req-500' },
      });
      expect(res.status).toBe(500);
      const body = await res.json();
      expect(body).toEqual({
        error: { code: 'internal_error', message: 'Internal server error', requestId: 'req-500' },
      });
      const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error');
      expect(logged.reqId).toBe('req-500');
      expect(logged.err.message).toContain('boom');
    } finally {
      server.close();
    }
  });
});
