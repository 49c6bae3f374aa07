/**
 * Which failures the client repeats: reads, deletes and `runs.create` (deduplicated by the service through
 * its Idempotency-Key) on any 429/5xx/network error; every other write only when the
 * service cannot have acted on it (429, 503, refused connection). Against a real server on 127.0.0.1.
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

describe('retry safety: only requests that cannot have taken effect twice are repeated', () => {
  const hook = { url: 'https://example.com/h', events: ['run.failed' as const], secret: 's'.repeat(16) };
  const webhookFixture = { id: 'w1', url: hook.url, events: hook.events, status: 'active' };
  const reset = (res: ServerResponse) => void res.socket?.destroy();

  it('does not retry a 500 on webhooks.create: exactly one request, ServerError, no Idempotency-Key', async () => {
    server = await startServer((_req, res) => apiError(res, 500, 'internal_error'));
    const err = await client(server.url)
      .webhooks.create(hook)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect(server.hits).toHaveLength(1);
    expect(server.hits[0]!.headers['idempotency-key']).toBeUndefined(); // the route would ignore it
  });

  it('retries webhooks.create once after a 503 (the service did not act on it)', async () => {
    server = await startServer((_req, res, i) =>
      i === 0 ? apiError(res, 503, 'unavailable', { headers: { 'retry-after': '0' } }) : json(res, 201, webhookFixture),
    );
    await expect(client(server.url).webhooks.create(hook)).resolves.toMatchObject({ id: 'w1' });
    expect(server.hits).toHaveLength(2);
    expect(server.hits[1]!.body.toString()).toBe(server.hits[0]!.body.toString());
  });

  it('retries apiKeys.create after a 429', async () => {
    server = await startServer((_req, res, i) =>
      i === 0
        ? apiError(res, 429, 'rate_limited', { headers: { 'retry-after': '0' } })
        : json(res, 201, { id: 'k1', key: 'svc_live_x' }),
    );
    await expect(client(server.url).apiKeys.create({ name: 'ci', scopes: ['runs:read'] })).resolves.toMatchObject({
      id: 'k1',
    });
    expect(server.hits).toHaveLength(2);
  });

  it.each([
    ['agents.create', 502, (svc: Svc) => svc.agents.create({ name: 'A' })],
    ['apiKeys.create', 500, (svc: Svc) => svc.apiKeys.create({ name: 'ci', scopes: ['runs:read'] })],
    ['apiKeys.setSpendCap (PUT)', 500, (svc: Svc) => svc.apiKeys.setSpendCap('k1', 5)],
    ['agents.update (PATCH)', 504, (svc: Svc) => svc.agents.update('a1', { name: 'B' })],
    ['files.upload', 500, (svc: Svc) => svc.files.upload('x', { filename: 'a.txt', mime: 'text/plain' })],
    ['runs.feedback', 500, (svc: Svc) => svc.runs.feedback('r1', { rating: 5 })],
    ['runs.input', 500, (svc: Svc) => svc.runs.input('r1', { answer: 'yes', actionId: 'act1' })],
    ['runs.approve', 500, (svc: Svc) => svc.runs.approve('r1', { approved: true, actionId: 'act1' })],
    ['runs.review', 500, (svc: Svc) => svc.runs.review('r1', { accept: true, actionId: 'act1' })],
    ['runs.cancel', 500, (svc: Svc) => svc.runs.cancel('r1')],
  ])('does not retry %s after a %i', async (_name, status, call) => {
    server = await startServer((_req, res) => apiError(res, status, 'internal_error'));
    await expect(call(client(server.url))).rejects.toBeInstanceOf(ServerError);
    expect(server.hits).toHaveLength(1);
  });

  it('does not retry a gate answer whose connection was reset after sending (it may have been accepted)', async () => {
    server = await startServer((_req, res) => reset(res));
    const err = await client(server.url)
      .runs.approve('r1', { approved: true, actionId: 'act1' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(server.hits).toHaveLength(1);
  });

  it('does not retry a POST that timed out (the service may still be processing it)', async () => {
    server = await startServer(() => undefined); // never answers
    const err = await client(server.url, { timeoutMs: 100, maxRetries: 2 })
      .webhooks.create(hook)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'timeout' });
    expect(server.hits).toHaveLength(1);
  });

  it('retries a POST whose connection was refused (nothing was sent)', async () => {
    const port = await closedPort();
    const counted = countingFetch();
    const err = await client(`http://127.0.0.1:${port}`, { fetch: counted.fetch, maxRetries: 2 })
      .webhooks.create(hook)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(counted.calls()).toBe(3);
  });

  it('retries runs.create after a 500 with the same Idempotency-Key (the service deduplicates it)', async () => {
    server = await startServer((_req, res, i) =>
      i === 0 ? apiError(res, 500, 'internal_error') : json(res, 201, runFixture('r1', 'queued')),
    );
    await expect(client(server.url).runs.create({ agentId: 'agent-1' })).resolves.toMatchObject({ id: 'r1' });
    expect(server.hits).toHaveLength(2);
    const [first, second] = server.hits.map((h) => h.headers['idempotency-key']);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe(first);
  });

  it('retries runs.create after a connection reset, with the same Idempotency-Key', async () => {
    server = await startServer((_req, res, i) => (i === 0 ? reset(res) : json(res, 201, runFixture('r1', 'queued'))));
    await expect(client(server.url).runs.create({ agentId: 'agent-1' })).resolves.toMatchObject({ id: 'r1' });
    expect(server.hits).toHaveLength(2);
    expect(server.hits[1]!.headers['idempotency-key']).toBe(server.hits[0]!.headers['idempotency-key']);
  });

  it('retries a GET after a 500 and after a connection reset', async () => {
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

  it('request() retries a POST only when told it is idempotent, then with a generated key', async () => {
    server = await startServer((_req, res, i) =>
      i <= 1 ? apiError(res, 500, 'internal_error') : json(res, 201, runFixture('r1', 'queued')),
    );
    const svc = client(server.url);
    await expect(svc.request({ method: 'POST', path: '/v1/runs', json: { agentId: 'a' } })).rejects.toBeInstanceOf(
      ServerError,
    );
    expect(server.hits).toHaveLength(1);
    await svc.request({ method: 'POST', path: '/v1/runs', json: { agentId: 'a' }, idempotent: true });
    expect(server.hits).toHaveLength(3);
    expect(server.hits[1]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.hits[2]!.headers['idempotency-key']).toBe(server.hits[1]!.headers['idempotency-key']);
  });

  it('sends a caller-given Idempotency-Key on any POST, without retrying it more', async () => {
    server = await startServer((_req, res) => apiError(res, 500, 'internal_error'));
    await expect(client(server.url).webhooks.create(hook, { idempotencyKey: 'mine-2' })).rejects.toBeInstanceOf(
      ServerError,
    );
    expect(server.hits.map((h) => h.headers['idempotency-key'])).toEqual(['mine-2']);
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
