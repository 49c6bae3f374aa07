/**
 * Which failures the client repeats: reads, deletes and every POST (deduplicated by the service through
 * its Idempotency-Key) on any 429/5xx/network error; PUT and PATCH only when the service cannot have acted
 * on them (429, 503, refused connection). Against a real server on 127.0.0.1.
 */
import type { ServerResponse } from 'node:http';
import { ConnectionError, ServerError, Svc } from '../../client/src/index.js';
import { failedBeforeSending } from '../../client/src/http.js';
import { apiError, closedPort, countingFetch, json, runFixture, startServer } from './fake-server.js';
import type { FakeServer } from './fake-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const client = (baseUrl: string, extra: Partial<ConstructorParameters<typeof Svc>[0]> = {}) =>
  new Svc({ apiKey: 'svc_live_test', baseUrl, ...extra });

describe('retry safety: only requests that cannot take effect twice are repeated', () => {
  const hook = { url: 'https://example.com/h', events: ['run.failed' as const], secret: 's'.repeat(16) };
  const reset = (res: ServerResponse) => void res.socket?.destroy();
  const UUID = /^[0-9a-f-]{36}$/;

  // every POST carries a key the service deduplicates by, so any 429/5xx is retried with that same key
  it.each([
    ['webhooks.create', 500, (svc: Svc) => svc.webhooks.create(hook)],
    ['agents.create', 502, (svc: Svc) => svc.agents.create({ name: 'A' })],
    ['apiKeys.create', 500, (svc: Svc) => svc.apiKeys.create({ name: 'ci', scopes: ['runs:read'] })],
    ['files.upload', 500, (svc: Svc) => svc.files.upload('x', { filename: 'a.txt', mime: 'text/plain' })],
    ['runs.create', 500, (svc: Svc) => svc.runs.create({ agentId: 'agent-1' })],
    ['runs.feedback', 504, (svc: Svc) => svc.runs.feedback('r1', { rating: 5 })],
    ['runs.input', 500, (svc: Svc) => svc.runs.input('r1', { answer: 'yes', actionId: 'act1' })],
    ['runs.approve', 500, (svc: Svc) => svc.runs.approve('r1', { approved: true, actionId: 'act1' })],
    ['runs.review', 500, (svc: Svc) => svc.runs.review('r1', { accept: true, actionId: 'act1' })],
    ['runs.cancel', 500, (svc: Svc) => svc.runs.cancel('r1')],
  ])('retries %s after a %i with the same Idempotency-Key', async (_name, status, call) => {
    server = await startServer((_req, res, i) =>
      i === 0 ? apiError(res, status, 'internal_error') : json(res, 201, { ...runFixture('r1', 'queued'), key: 'k' }),
    );
    await expect(call(client(server.url))).resolves.toBeDefined();
    expect(server.hits).toHaveLength(2);
    const [first, second] = server.hits.map((h) => h.headers['idempotency-key']);
    expect(first).toMatch(UUID);
    expect(second).toBe(first);
    expect(server.hits[1]!.body.toString()).toBe(server.hits[0]!.body.toString());
  });

  it('repeats a POST whose key an earlier attempt still holds (409 in_progress), after Retry-After, with that key', async () => {
    server = await startServer((_req, res, i) =>
      i === 0
        ? apiError(res, 409, 'conflict', { details: { reason: 'in_progress' }, headers: { 'retry-after': '0' } })
        : json(res, 201, { ...runFixture('r1', 'queued'), key: 'k' }),
    );
    await expect(client(server.url).webhooks.create(hook)).resolves.toBeDefined();
    expect(server.hits).toHaveLength(2);
    expect(server.hits[1]!.headers['idempotency-key']).toBe(server.hits[0]!.headers['idempotency-key']);
  });

  it('never repeats any other 409', async () => {
    server = await startServer((_req, res) => apiError(res, 409, 'conflict', { message: 'used with another request' }));
    await expect(client(server.url).webhooks.create(hook)).rejects.toMatchObject({ status: 409 });
    expect(server.hits).toHaveLength(1);
  });

  it('sends a fresh key on every call, and the caller-given one when given', async () => {
    server = await startServer((_req, res) => json(res, 201, runFixture('r1', 'queued')));
    const svc = client(server.url);
    await svc.runs.feedback('r1', { rating: 5 });
    await svc.runs.feedback('r1', { rating: 5 });
    await svc.webhooks.create(hook, { idempotencyKey: 'mine-2' });
    const keys = server.hits.map((h) => h.headers['idempotency-key']);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toMatch(UUID);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys[2]).toBe('mine-2');
  });

  it('retries a POST after a connection reset and after a timeout, with the same key', async () => {
    server = await startServer((_req, res, i) =>
      i === 0 ? reset(res) : i === 1 ? undefined : json(res, 202, runFixture('r1', 'running')),
    );
    await expect(
      client(server.url, { timeoutMs: 300, maxRetries: 2 }).runs.approve('r1', { approved: true, actionId: 'act1' }),
    ).resolves.toMatchObject({ id: 'r1' });
    expect(server.hits).toHaveLength(3);
    expect(new Set(server.hits.map((h) => h.headers['idempotency-key'])).size).toBe(1);
  });

  it.each([
    ['apiKeys.setSpendCap (PUT)', 500, (svc: Svc) => svc.apiKeys.setSpendCap('k1', 5)],
    ['agents.update (PATCH)', 504, (svc: Svc) => svc.agents.update('a1', { name: 'B' })],
  ])('does not retry %s after a %i (not deduplicated: it may have taken effect)', async (_name, status, call) => {
    server = await startServer((_req, res) => apiError(res, status, 'internal_error'));
    await expect(call(client(server.url))).rejects.toBeInstanceOf(ServerError);
    expect(server.hits).toHaveLength(1);
    expect(server.hits[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('retries a PATCH after a 503 (the service did not act on it) and after a refused connection', async () => {
    server = await startServer((_req, res, i) =>
      i === 0 ? apiError(res, 503, 'unavailable', { headers: { 'retry-after': '0' } }) : json(res, 200, { id: 'a1' }),
    );
    await expect(client(server.url).agents.update('a1', { name: 'B' })).resolves.toMatchObject({ id: 'a1' });
    expect(server.hits).toHaveLength(2);
    const port = await closedPort();
    const counted = countingFetch();
    const err = await client(`http://127.0.0.1:${port}`, { fetch: counted.fetch, maxRetries: 2 })
      .agents.update('a1', { name: 'B' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(counted.calls()).toBe(3);
  });

  it('does not retry a PATCH whose connection was reset after sending (it may have been applied)', async () => {
    server = await startServer((_req, res) => reset(res));
    const err = await client(server.url)
      .agents.update('a1', { name: 'B' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(server.hits).toHaveLength(1);
  });

  it('retries a GET after a 500 and after a connection reset, without a key', async () => {
    server = await startServer((_req, res, i) =>
      i === 0
        ? apiError(res, 500, 'internal_error')
        : i === 1
          ? reset(res)
          : json(res, 200, runFixture('r1', 'running')),
    );
    await expect(client(server.url).runs.get('r1')).resolves.toMatchObject({ status: 'running' });
    expect(server.hits).toHaveLength(3);
    expect(server.hits.every((h) => h.headers['idempotency-key'] === undefined)).toBe(true);
  });

  it('retries a DELETE after a 500', async () => {
    server = await startServer((_req, res, i) =>
      i === 0 ? apiError(res, 500, 'internal_error') : void res.writeHead(204).end(),
    );
    await client(server.url).webhooks.delete('w1');
    expect(server.hits.map((h) => h.method)).toEqual(['DELETE', 'DELETE']);
  });

  it('request() keys and retries a POST by default; idempotent: false sends it once, without a key', async () => {
    server = await startServer((_req, res, i) =>
      i === 0 || i === 2 ? apiError(res, 500, 'internal_error') : json(res, 201, runFixture('r1', 'queued')),
    );
    const svc = client(server.url);
    await svc.request({ method: 'POST', path: '/v1/things', json: { a: 1 } });
    expect(server.hits).toHaveLength(2);
    expect(server.hits[1]!.headers['idempotency-key']).toBe(server.hits[0]!.headers['idempotency-key']);
    await expect(
      svc.request({ method: 'POST', path: '/v1/things', json: { a: 1 }, idempotent: false }),
    ).rejects.toBeInstanceOf(ServerError);
    expect(server.hits).toHaveLength(3);
    expect(server.hits[2]!.headers['idempotency-key']).toBeUndefined();
  });
});

describe('failedBeforeSending', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  const reset = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });

  it('recognises refused and unresolved connections in the cause chain, never a reset', () => {
    expect(failedBeforeSending(new TypeError('fetch failed', { cause: refused }))).toBe(true);
    expect(failedBeforeSending(new TypeError('fetch failed', { cause: { code: 'ENOTFOUND' } }))).toBe(true);
    expect(failedBeforeSending(new TypeError('fetch failed', { cause: reset }))).toBe(false);
    expect(failedBeforeSending(new TypeError('Failed to fetch'))).toBe(false); // a browser says no more
    expect(failedBeforeSending(undefined)).toBe(false);
  });

  it('requires every address of an AggregateError (happy eyeballs) to have been refused', () => {
    expect(failedBeforeSending(new TypeError('fetch failed', { cause: new AggregateError([refused, refused]) }))).toBe(
      true,
    );
    expect(failedBeforeSending(new TypeError('fetch failed', { cause: new AggregateError([refused, reset]) }))).toBe(
      false,
    );
  });
});
