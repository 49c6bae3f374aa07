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
