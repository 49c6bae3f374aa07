import { Svc } from '../../client/src/index.js';
import { json, runFixture, startServer } from './fake-server.js';
import type { FakeServer } from './fake-server.js';

let server: FakeServer;
let svc: Svc;
beforeAll(async () => {
  server = await startServer((req, res) => {
    if (req.method === 'DELETE') return void res.writeHead(204).end();
    if (req.path === '/v1/webhooks') return json(res, 200, { webhooks: [{ id: 'w1' }] });
    if (req.path === '/v1/api-keys' && req.method === 'GET') return json(res, 200, { apiKeys: [{ id: 'k1' }] });
    if (req.path === '/v1/agents' && req.method === 'GET')
      return json(res, 200, { agents: [{ id: 'a1' }], nextCursor: null });
    if (req.path === '/v1/folders' && req.method === 'GET')
      return json(res, 200, { folders: [{ id: 'd1' }], nextCursor: null });
    for (const catalogue of ['presets', 'models', 'tools'])
      if (req.path === `/v1/${catalogue}`) return json(res, 200, { [catalogue]: [{ id: `${catalogue}-1` }] });
    json(res, req.method === 'POST' ? 201 : 200, runFixture('r1', 'running'));
  });
  svc = new Svc({ apiKey: 'k', baseUrl: server.url, maxRetries: 0 });
});
afterAll(() => server.close());

const last = () => server.hits[server.hits.length - 1]!;
const lastJson = () => JSON.parse(last().body.toString()) as unknown;

describe('resource methods map to the contract routes', () => {
  it.each([
    ['runs.output', () => svc.runs.output('r 1'), 'GET', '/v1/runs/r%201/output'],
    ['runs.cancel', () => svc.runs.cancel('r1'), 'POST', '/v1/runs/r1/cancel'],
    ['agents.get', () => svc.agents.get('a1'), 'GET', '/v1/agents/a1'],
    ['files.get', () => svc.files.get('f1'), 'GET', '/v1/files/f1'],
    ['usage.balance', () => svc.usage.balance(), 'GET', '/v1/usage/balance'],
    ['webhooks.delete', () => svc.webhooks.delete('w1'), 'DELETE', '/v1/webhooks/w1'],
    ['apiKeys.revoke', () => svc.apiKeys.revoke('k1'), 'DELETE', '/v1/api-keys/k1'],
    ['agents.definition', () => svc.agents.definition('a 1'), 'GET', '/v1/agents/a%201/definition'],
    ['folders.delete', () => svc.folders.delete('d/1'), 'DELETE', '/v1/folders/d%2F1'],
  ])('%s', async (_name, call, method, path) => {
    await call();
    expect([last().method, last().path]).toEqual([method, path]);
  });

  it.each([
    [
      'runs.input',
      () => svc.runs.input('r1', { answer: 'yes', actionId: 'act1' }),
      '/v1/runs/r1/input',
      { answer: 'yes', actionId: 'act1' },
    ],
    [
      'runs.approve',
      () => svc.runs.approve('r1', { approved: false, comment: 'no' }),
      '/v1/runs/r1/approve',
      { approved: false, comment: 'no' },
    ],
    [
      'runs.review',
      () => svc.runs.review('r1', { accept: true, correctedOutput: { x: 1 } }),
      '/v1/runs/r1/review',
      { accept: true, correctedOutput: { x: 1 } },
    ],
    [
      'runs.feedback',
      () => svc.runs.feedback('r1', { rating: 5, comment: 'great' }),
      '/v1/runs/r1/feedback',
      { rating: 5, comment: 'great' },
    ],
    [
      'agents.create',
      () => svc.agents.create({ name: 'A', presetId: 'general-assistant' }),
      '/v1/agents',
      { name: 'A', presetId: 'general-assistant' },
    ],
    [
      'webhooks.create',
      () => svc.webhooks.create({ url: 'https://example.com/h', events: ['run.failed'], secret: 's'.repeat(16) }),
      '/v1/webhooks',
      { url: 'https://example.com/h', events: ['run.failed'], secret: 's'.repeat(16) },
    ],
    [
      'apiKeys.create',
      () => svc.apiKeys.create({ name: 'ci', scopes: ['runs:read'] }),
      '/v1/api-keys',
      { name: 'ci', scopes: ['runs:read'] },
    ],
  ])('%s posts its JSON body', async (_name, call, path, body) => {
    await call();
    expect(last().method).toBe('POST');
    expect(last().path).toBe(path);
    expect(last().headers['content-type']).toBe('application/json');
    expect(lastJson()).toEqual(body);
  });

  it.each([
    [
      'files.update',
      () => svc.files.update('f1', { filename: 'b.txt', folderId: null }),
      '/v1/files/f1',
      { filename: 'b.txt', folderId: null },
    ],
    [
      'folders.update',
      () => svc.folders.update('d1', { name: 'Q4', parentId: 'd0' }),
      '/v1/folders/d1',
      { name: 'Q4', parentId: 'd0' },
    ],
  ])('%s patches its JSON body, without an Idempotency-Key', async (_name, call, path, body) => {
    await call();
    expect([last().method, last().path]).toEqual(['PATCH', path]);
    expect(last().headers['idempotency-key']).toBeUndefined();
    expect(lastJson()).toEqual(body);
  });

  it.each([
    ['folders.create', () => svc.folders.create({ name: 'Q4', parentId: null }), '/v1/folders'],
    [
      'localRuns.report',
      () =>
        svc.localRuns.report({
          agentId: 'a1',
          runs: [{ status: 'succeeded', startedAt: '2026-01-01T00:00:00Z', completedAt: '2026-01-01T00:00:01Z' }],
        }),
      '/v1/local-runs',
    ],
  ])('%s posts with an Idempotency-Key of its own per call', async (_name, call, path) => {
    await call();
    const first = last().headers['idempotency-key'];
    await call();
    expect([last().method, last().path]).toEqual(['POST', path]);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(last().headers['idempotency-key']).not.toBe(first);
  });

  it('the catalogues unwrap their arrays; folders.list paginates with its parentId', async () => {
    await expect(svc.agents.presets()).resolves.toEqual([{ id: 'presets-1' }]);
    await expect(svc.agents.models()).resolves.toEqual([{ id: 'models-1' }]);
    await expect(svc.agents.tools()).resolves.toEqual([{ id: 'tools-1' }]);
    await expect(svc.folders.list({ parentId: 'root', limit: 5 }).toArray()).resolves.toEqual([{ id: 'd1' }]);
    expect(Object.fromEntries(last().query)).toEqual({ parentId: 'root', limit: '5' });
  });

  it('lists unwrap webhooks and apiKeys; agents.list paginates', async () => {
    await expect(svc.webhooks.list()).resolves.toEqual([{ id: 'w1' }]);
    await expect(svc.apiKeys.list()).resolves.toEqual([{ id: 'k1' }]);
    await expect(svc.agents.list().toArray()).resolves.toEqual([{ id: 'a1' }]);
  });

  it('usage.get sends from/to, formatting Dates as UTC days', async () => {
    await svc.usage.get({ from: new Date('2024-03-01T12:00:00Z'), to: '2024-03-31' });
    expect(last().path).toBe('/v1/usage');
    expect(Object.fromEntries(last().query)).toEqual({ from: '2024-03-01', to: '2024-03-31' });
  });

  it('files.upload posts the raw bytes with Content-Type and X-Filename', async () => {
    const bytes = new Uint8Array([0, 1, 2, 255]);
    await svc.files.upload(bytes, { filename: 'data.bin', mime: 'application/octet-stream' });
    expect(last().path).toBe('/v1/files');
    expect(last().headers['content-type']).toBe('application/octet-stream');
    expect(last().headers['x-filename']).toBe('data.bin');
    expect([...last().body]).toEqual([0, 1, 2, 255]);
    await svc.files.upload('héllo', { filename: 'résumé.txt', mime: 'text/plain' });
    expect(last().headers['x-filename']).toBe('r%C3%A9sum%C3%A9.txt');
    expect(last().body.toString('utf8')).toBe('héllo');
  });

  it('request() is an escape hatch with the same auth and errors', async () => {
    await svc.request({ method: 'GET', path: '/v1/runs/r1/steps' });
    expect(last().path).toBe('/v1/runs/r1/steps');
    expect(last().headers.authorization).toBe('Bearer k');
  });
});
