import {
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ServerError,
  Svc,
  SvcError,
  ValidationError,
} from '../../client/src/index.js';
import { apiError, closedPort, countingFetch, json, runFixture, startServer } from './fake-server.js';
import type { FakeServer } from './fake-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const client = (baseUrl: string, extra: Partial<ConstructorParameters<typeof Svc>[0]> = {}) =>
  new Svc({ apiKey: 'svc_live_test', baseUrl, ...extra });

describe('construction', () => {
  const saved = process.env.SVC_API_KEY;
  afterEach(() => {
    if (saved === undefined) delete process.env.SVC_API_KEY;
    else process.env.SVC_API_KEY = saved;
  });

  it('throws without an API key', () => {
    delete process.env.SVC_API_KEY;
    expect(() => new Svc()).toThrow(SvcError);
    expect(() => new Svc()).toThrow(/SVC_API_KEY/);
  });

  it('reads SVC_API_KEY and defaults baseUrl to localhost:3000', () => {
    process.env.SVC_API_KEY = 'svc_live_env';
    expect(new Svc().baseUrl).toBe('http://localhost:3000');
  });

  it('sends the key as a Bearer token and JSON headers', async () => {
    process.env.SVC_API_KEY = 'svc_live_env';
    server = await startServer((_req, res) => json(res, 200, runFixture('r1', 'queued')));
    await new Svc({ baseUrl: `${server.url}/` }).runs.get('r1');
    expect(server.hits[0]!.path).toBe('/v1/runs/r1');
    expect(server.hits[0]!.headers.authorization).toBe('Bearer svc_live_env');
    expect(server.hits[0]!.headers.accept).toBe('application/json');
  });

  it('rejects malformed options', () => {
    expect(() => new Svc({ apiKey: 'k', maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => new Svc({ apiKey: 'k', baseUrl: 'localhost:3000' })).toThrow(/baseUrl/);
  });
});

describe('retries', () => {
  it('waits at least Retry-After on 429, then succeeds', async () => {
    server = await startServer((_req, res, i) =>
      i === 0
        ? apiError(res, 429, 'rate_limited', { message: 'Rate limit exceeded', headers: { 'retry-after': '1' } })
        : json(res, 200, runFixture('r1', 'running')),
    );
    const started = Date.now();
    const run = await client(server.url).runs.get('r1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(run.status).toBe('running');
    expect(server.hits).toHaveLength(2);
  });

  it('never retries a 400 and exposes the envelope', async () => {
    const details = { issues: [{ path: 'agentId', message: 'Required' }] };
    server = await startServer((_req, res) =>
      apiError(res, 400, 'validation_error', { message: 'Invalid body', details, requestId: 'req-400' }),
    );
    const err = await client(server.url)
      .runs.create({ agentId: '' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(ValidationError.is(err)).toBe(true);
    expect(NotFoundError.is(err)).toBe(false);
    expect(err).toMatchObject({
      code: 'validation_error',
      status: 400,
      message: 'Invalid body',
      details,
      requestId: 'req-400',
    });
    expect(server.hits).toHaveLength(1);
  });

  it('retries 503 on runs.create with one Idempotency-Key and returns one result', async () => {
    server = await startServer((_req, res, i) =>
      i === 0 ? apiError(res, 503, 'unavailable') : json(res, 201, runFixture('r1', 'queued')),
    );
    const run = await client(server.url).runs.create({ agentId: 'agent-1', input: { fileIds: [] } });
    expect(run.id).toBe('r1');
    expect(server.hits).toHaveLength(2);
    const keys = server.hits.map((h) => h.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(JSON.parse(server.hits[1]!.body.toString())).toEqual({ agentId: 'agent-1', input: { fileIds: [] } });
  });

  it('uses a fresh Idempotency-Key per call and prefers the caller’s', async () => {
    server = await startServer((_req, res) => json(res, 201, runFixture('r1', 'queued')));
    const svc = client(server.url);
    await svc.runs.create({ agentId: 'a' });
    await svc.runs.create({ agentId: 'a' });
    await svc.runs.create({ agentId: 'a' }, { idempotencyKey: 'mine-1' });
    const keys = server.hits.map((h) => h.headers['idempotency-key']);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBe('mine-1');
  });

  it('respects maxRetries on an always-500 server and raises ServerError', async () => {
    server = await startServer((_req, res) => apiError(res, 500, 'internal_error', { requestId: 'req-500' }));
    const err = await client(server.url, { maxRetries: 2 })
      .runs.get('r1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect(err).toMatchObject({ status: 500, code: 'internal_error', requestId: 'req-500' });
    expect(server.hits).toHaveLength(3);
  });

  it('maxRetries: 0 sends exactly one request', async () => {
    server = await startServer((_req, res) => apiError(res, 502, 'bad_gateway'));
    await expect(client(server.url, { maxRetries: 0 }).runs.get('r1')).rejects.toBeInstanceOf(ServerError);
    expect(server.hits).toHaveLength(1);
  });

  it('retries network errors, then raises ConnectionError', async () => {
    const port = await closedPort();
    const counted = countingFetch();
    const err = await client(`http://127.0.0.1:${port}`, { fetch: counted.fetch, maxRetries: 2 })
      .runs.get('r1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err).toBeInstanceOf(SvcError);
    expect((err as ConnectionError).status).toBeUndefined();
    expect(counted.calls()).toBe(3);
  });

  it('turns a per-attempt timeout into ConnectionError after retrying', async () => {
    server = await startServer(() => undefined); // never answers
    // Attempts are counted where the client makes them: an attempt aborted at 100 ms on a busy event loop
    // may close its socket before the server has read the request, so the server's count can miss it.
    const counted = countingFetch();
    const err = await client(server.url, { timeoutMs: 100, maxRetries: 1, fetch: counted.fetch })
      .runs.get('r1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).code).toBe('timeout');
    expect(counted.calls()).toBe(2);
  });

  it('gives up on a Retry-After beyond the cap, surfacing RateLimitError.retryAfter', async () => {
    server = await startServer((_req, res) =>
      apiError(res, 429, 'rate_limited', { message: 'Rate limit exceeded', headers: { 'retry-after': '3600' } }),
    );
    const err = await client(server.url)
      .runs.get('r1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfter).toBe(3600);
    expect(server.hits).toHaveLength(1);
  });
});

describe('errors', () => {
  it('maps 401/404 and falls back to X-Request-Id for a non-envelope body', async () => {
    server = await startServer((req, res) => {
      if (req.path.endsWith('/missing')) return apiError(res, 404, 'not_found', { requestId: 'req-404' });
      res.writeHead(401, { 'content-type': 'text/plain', 'x-request-id': 'hdr-1', 'www-authenticate': 'Bearer' });
      res.end('nope');
    });
    const svc = client(server.url);
    const notFound = await svc.runs.get('missing').catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound).toMatchObject({ status: 404, code: 'not_found', requestId: 'req-404' });
    const unauth = await svc.runs.get('other').catch((e: unknown) => e);
    expect(unauth).toBeInstanceOf(AuthenticationError);
    expect(unauth).toMatchObject({ status: 401, code: 'http_401', requestId: 'hdr-1' });
    expect(server.hits).toHaveLength(2);
  });
});
