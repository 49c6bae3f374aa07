import { Svc, SvcError } from '../../client/src/index.js';
import { json, runFixture, startServer } from './fake-server.js';
import type { FakeServer } from './fake-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** 45 runs served newest first in pages of `limit` (default 20); the cursor is the next offset. */
const items = Array.from({ length: 45 }, (_, i) => runFixture(`run-${String(i).padStart(2, '0')}`, 'succeeded'));
async function listServer(): Promise<FakeServer> {
  return startServer((req, res) => {
    const limit = Number(req.query.get('limit') ?? 20);
    const offset = Number(req.query.get('cursor') ?? 0);
    const page = items.slice(offset, offset + limit);
    const next = offset + limit < items.length ? String(offset + limit) : null;
    json(res, 200, { runs: page, nextCursor: next });
  });
}

describe('runs.list pagination', () => {
  it('iterates every run across pages, following nextCursor', async () => {
    server = await listServer();
    const svc = new Svc({ apiKey: 'k', baseUrl: server.url });
    const ids: string[] = [];
    for await (const run of svc.runs.list({ status: 'succeeded', agentId: 'agent-1' })) ids.push(run.id);
    expect(ids).toHaveLength(45);
    expect(new Set(ids).size).toBe(45);
    expect(ids).toEqual(items.map((r) => r.id));
    expect(server.hits.map((h) => h.query.get('cursor'))).toEqual([null, '20', '40']);
    expect(server.hits[0]!.query.get('status')).toBe('succeeded');
    expect(server.hits[2]!.query.get('agentId')).toBe('agent-1');
  });

  it('.pages() yields the three pages with their cursors', async () => {
    server = await listServer();
    const svc = new Svc({ apiKey: 'k', baseUrl: server.url });
    const pages: { count: number; nextCursor: string | null }[] = [];
    for await (const page of svc.runs.list().pages())
      pages.push({ count: page.runs.length, nextCursor: page.nextCursor });
    expect(pages).toEqual([
      { count: 20, nextCursor: '20' },
      { count: 20, nextCursor: '40' },
      { count: 5, nextCursor: null },
    ]);
  });

  it('passes limit through, is lazy, and stops fetching when the consumer stops', async () => {
    server = await listServer();
    const list = new Svc({ apiKey: 'k', baseUrl: server.url }).runs.list({ limit: 10 });
    expect(server.hits).toHaveLength(0);
    expect(await list.toArray(15)).toHaveLength(15);
    expect(server.hits.map((h) => h.query.get('limit'))).toEqual(['10', '10']);
  });

  it('refuses a cursor loop instead of iterating forever', async () => {
    server = await startServer((_req, res) =>
      json(res, 200, { runs: [runFixture('r', 'queued')], nextCursor: 'same' }),
    );
    const list = new Svc({ apiKey: 'k', baseUrl: server.url }).runs.list();
    await expect(list.toArray()).rejects.toMatchObject({ code: 'pagination.cursor_loop' });
    await expect(list.toArray()).rejects.toBeInstanceOf(SvcError);
  });
});

describe('webhooks.list pagination', () => {
  const hooks = Array.from({ length: 130 }, (_, i) => ({ id: `w-${i}`, url: `https://e.com/${i}` }));

  it('follows nextCursor through every page, asking for the largest page size', async () => {
    server = await startServer((req, res) => {
      const limit = Number(req.query.get('limit'));
      const offset = Number(req.query.get('cursor') ?? 0);
      const next = offset + limit < hooks.length ? String(offset + limit) : null;
      json(res, 200, { webhooks: hooks.slice(offset, offset + limit), nextCursor: next });
    });
    const list = await new Svc({ apiKey: 'k', baseUrl: server.url }).webhooks.list();
    expect(list.map((w) => w.id)).toEqual(hooks.map((w) => w.id));
    expect(server.hits.map((h) => [h.path, h.query.get('limit'), h.query.get('cursor')])).toEqual([
      ['/v1/webhooks', '100', null],
      ['/v1/webhooks', '100', '100'],
    ]);
  });

  it('treats a response without nextCursor (a service that does not page this list) as the only page', async () => {
    server = await startServer((_req, res) => json(res, 200, { webhooks: hooks.slice(0, 3) }));
    const list = await new Svc({ apiKey: 'k', baseUrl: server.url }).webhooks.list();
    expect(list.map((w) => w.id)).toEqual(['w-0', 'w-1', 'w-2']);
    expect(server.hits).toHaveLength(1);
  });
});
