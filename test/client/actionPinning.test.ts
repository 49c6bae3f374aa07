import { Svc } from '../../client/src/index.js';
import { json, runFixture, startServer, type FakeServer } from './fake-server.js';

// An answer without an actionId is pinned to the gate the run waits on when the call starts, and every
// retry of the call carries that same id, so a retry can never answer the gate that opened after it.
describe('gate answers pin the action they answer', () => {
  let server: FakeServer;
  let posts = 0;
  beforeAll(async () => {
    server = await startServer((req, res) => {
      if (req.method === 'GET') {
        return json(
          res,
          200,
          runFixture('r1', 'needs_approval', { pendingAction: { id: 'gate-1', type: 'approval' } }),
        );
      }
      // The first POST fails as an overloaded service would; the retry goes through.
      posts++;
      if (posts === 1)
        return json(res, 503, { error: { code: 'unavailable', message: 'later' } }, { 'Retry-After': '0' });
      json(res, 202, runFixture('r1', 'running'));
    });
  });
  afterAll(() => server.close());

  it('reads the run once, then sends the pinned id on the first attempt and on its retry', async () => {
    const svc = new Svc({ apiKey: 'k', baseUrl: server.url, maxRetries: 2 });
    const run = await svc.runs.approve('r1', { approved: true });
    expect(run.status).toBe('running');
    expect(server.hits.map((h) => h.method)).toEqual(['GET', 'POST', 'POST']);
    const bodies = server.hits.filter((h) => h.method === 'POST').map((h) => JSON.parse(h.body.toString()) as unknown);
    expect(bodies).toEqual([
      { approved: true, actionId: 'gate-1' },
      { approved: true, actionId: 'gate-1' },
    ]);
  });

  it('keeps an actionId the caller gave, without reading the run', async () => {
    server.hits.length = 0;
    const svc = new Svc({ apiKey: 'k', baseUrl: server.url, maxRetries: 0 });
    await svc.runs.input('r1', { answer: 'yes', actionId: 'mine' });
    expect(server.hits.map((h) => [h.method, JSON.parse(h.body.toString() || 'null')])).toEqual([
      ['POST', { answer: 'yes', actionId: 'mine' }],
    ]);
  });
});
