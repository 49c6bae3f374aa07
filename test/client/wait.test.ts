import type { ServerResponse } from 'node:http';
import { PAUSED_STATUSES, Svc, SvcError, TimeoutError } from '../../client/src/index.js';
import type { RunEvent } from '../../client/src/index.js';
import { apiError, json, runFixture, startServer } from './fake-server.js';
import type { FakeServer } from './fake-server.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const svcFor = (s: FakeServer) => new Svc({ apiKey: 'k', baseUrl: s.url, maxRetries: 0 });
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Streams SSE frames, split mid-line and with CRLF/comments mixed in to exercise the parser. */
async function streamEvents(res: ServerResponse, frames: { event: string; data: unknown }[]): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  res.write(': keep-alive\n\n');
  let seq = 0;
  for (const frame of frames) {
    const text = `id: ${++seq}\r\nevent: ${frame.event}\r\ndata: ${JSON.stringify(frame.data)}\r\n\r\n`;
    const cut = Math.floor(text.length / 2);
    res.write(text.slice(0, cut));
    await delay(5);
    res.write(text.slice(cut));
  }
  res.end();
}

describe('runs.wait', () => {
  it('follows the SSE stream, calls onEvent in order and resolves on the terminal status', async () => {
    const statuses = ['queued', 'running', 'needs_input', 'running', 'succeeded'];
    server = await startServer(async (req, res) => {
      expect(req.path).toBe('/v1/runs/r1/events');
      expect(req.headers.accept).toBe('text/event-stream');
      await streamEvents(res, [
        ...statuses.slice(0, 2).map((s) => ({ event: 'run.status', data: runFixture('r1', s) })),
        { event: 'run.step', data: { index: 0, type: 'model', status: 'succeeded', detail: null } },
        { event: 'run.unknown_kind', data: {} },
        ...statuses.slice(2).map((s) => ({ event: 'run.status', data: runFixture('r1', s) })),
      ]);
    });
    const events: RunEvent[] = [];
    const run = await svcFor(server).runs.wait('r1', { onEvent: (e) => void events.push(e) });
    expect(run.status).toBe('succeeded');
    expect(run.output).toEqual({ ok: true });
    expect(events.map((e) => (e.type === 'run.status' ? e.data.status : e.type))).toEqual([
      'queued',
      'running',
      'run.step',
      'needs_input',
      'running',
      'succeeded',
    ]);
    expect(server.hits).toHaveLength(1); // no polling needed
  });

  it('falls back to polling when the events route 404s', async () => {
    const sequence = ['queued', 'running', 'running', 'needs_approval', 'succeeded'];
    let polls = 0;
    server = await startServer((req, res) => {
      if (req.path.endsWith('/events')) return apiError(res, 404, 'not_found');
      json(res, 200, runFixture('r2', sequence[Math.min(polls++, sequence.length - 1)]!));
    });
    const seen: string[] = [];
    const run = await svcFor(server).runs.wait('r2', {
      pollMs: 10,
      onEvent: (e) => void seen.push(e.type === 'run.status' ? e.data.status : e.type),
    });
    expect(run.status).toBe('succeeded');
    expect(polls).toBe(5);
    expect(seen).toEqual(['queued', 'running', 'needs_approval', 'succeeded']); // one event per change
  });

  it('falls back to polling when the route answers 200 but not as an event stream', async () => {
    server = await startServer((req, res) =>
      req.path.endsWith('/events') ? json(res, 200, { hello: 1 }) : json(res, 200, runFixture('r3', 'failed')),
    );
    const run = await svcFor(server).runs.wait('r3', { pollMs: 10 });
    expect(run.status).toBe('failed');
    expect(server.hits.map((h) => h.path)).toEqual(['/v1/runs/r3/events', '/v1/runs/r3']);
  });

  it('polls after a stream that ends before a terminal status', async () => {
    server = await startServer(async (req, res) => {
      if (req.path.endsWith('/events'))
        return streamEvents(res, [{ event: 'run.status', data: runFixture('r4', 'running') }]);
      json(res, 200, runFixture('r4', 'cancelled'));
    });
    const seen: string[] = [];
    const run = await svcFor(server).runs.wait('r4', {
      pollMs: 10,
      onEvent: (e) => void seen.push(e.type === 'run.status' ? e.data.status : e.type),
    });
    expect(run.status).toBe('cancelled');
    expect(seen).toEqual(['running', 'cancelled']);
  });

  it('rejects an unknown status instead of looping (polling)', async () => {
    server = await startServer((req, res) =>
      req.path.endsWith('/events') ? apiError(res, 404, 'not_found') : json(res, 200, runFixture('r5', 'paused')),
    );
    const err = await svcFor(server)
      .runs.wait('r5', { pollMs: 10, timeoutMs: 5000 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SvcError);
    expect(err).not.toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ code: 'unexpected_status', details: { status: 'paused' } });
  });

  it('rejects an unknown status instead of looping (stream)', async () => {
    server = await startServer((_req, res) =>
      streamEvents(res, [{ event: 'run.status', data: runFixture('r6', 'weird') }]),
    );
    await expect(svcFor(server).runs.wait('r6', { timeoutMs: 5000 })).rejects.toMatchObject({
      code: 'unexpected_status',
    });
  });

  it('rejects with TimeoutError after timeoutMs (polling)', async () => {
    server = await startServer((req, res) =>
      req.path.endsWith('/events') ? apiError(res, 404, 'not_found') : json(res, 200, runFixture('r7', 'running')),
    );
    const started = Date.now();
    const err = await svcFor(server)
      .runs.wait('r7', { pollMs: 20, timeoutMs: 300 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ code: 'timeout', runId: 'r7', lastStatus: 'running' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('rejects with TimeoutError while a stream stays open without a terminal status', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`event: run.status\ndata: ${JSON.stringify(runFixture('r8', 'needs_review'))}\n\n`);
    });
    const err = await svcFor(server)
      .runs.wait('r8', { timeoutMs: 300 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).lastStatus).toBe('needs_review');
  });

  it('propagates an onEvent error and a caller abort', async () => {
    server = await startServer((req, res) =>
      req.path.endsWith('/events') ? apiError(res, 404, 'not_found') : json(res, 200, runFixture('r9', 'running')),
    );
    const svc = svcFor(server);
    const boom = new Error('boom');
    await expect(svc.runs.wait('r9', { pollMs: 10, onEvent: () => Promise.reject(boom) })).rejects.toBe(boom);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(svc.runs.wait('r9', { pollMs: 10, signal: controller.signal })).rejects.toThrow('stop');
  });

  it('stops at a gate with resolveOn and skips the answered one (create → wait → input → wait)', async () => {
    const gate = { id: 'act-1', type: 'input', question: 'Which city?' };
    let answered = false;
    let pollsAfterAnswer = 0;
    server = await startServer((req, res) => {
      if (req.path.endsWith('/events')) return apiError(res, 404, 'not_found');
      if (req.path.endsWith('/input')) {
        answered = true;
        return json(res, 202, runFixture('g1', 'needs_input', { pendingAction: gate })); // read model still lags
      }
      if (!answered) return json(res, 200, runFixture('g1', 'needs_input', { pendingAction: gate }));
      // the first poll after answering still shows the answered gate; then the run finishes
      const stale = pollsAfterAnswer++ === 0;
      json(res, 200, runFixture('g1', stale ? 'needs_input' : 'succeeded', { pendingAction: stale ? gate : null }));
    });
    const svc = svcFor(server);
    const paused = await svc.runs.wait('g1', { pollMs: 10, resolveOn: PAUSED_STATUSES });
    expect(paused.status).toBe('needs_input');
    expect(paused.pendingAction).toEqual(gate);
    await svc.runs.input('g1', { answer: 'Paris', actionId: gate.id });
    // a stale "needs_input" carrying the answered action must not end this wait
    const stalePoll = svc.runs.wait('g1', { pollMs: 10, resolveOn: PAUSED_STATUSES, answeredActionId: gate.id });
    await expect(stalePoll).resolves.toMatchObject({ status: 'succeeded' });
    expect(pollsAfterAnswer).toBe(2);
  });

  it('resolveOn over the stream confirms a gate with a fresh read, skipping replayed gates', async () => {
    const gate = (id: string) => ({ pendingAction: { id, type: 'input', question: id } });
    let reads = 0;
    server = await startServer((req, res) => {
      if (req.path === '/v1/runs/g2') {
        // the first read happens while the stream replays q1, when the run has moved on
        return json(
          res,
          200,
          reads++ === 0 ? runFixture('g2', 'running') : runFixture('g2', 'needs_input', gate('q2')),
        );
      }
      return streamEvents(res, [
        { event: 'run.status', data: runFixture('g2', 'needs_input', gate('q1')) }, // history: already answered
        { event: 'run.status', data: runFixture('g2', 'running') },
        { event: 'run.status', data: runFixture('g2', 'needs_input', gate('q2')) },
      ]);
    });
    const run = await svcFor(server).runs.wait('g2', { resolveOn: PAUSED_STATUSES });
    expect(run.pendingAction?.id).toBe('q2');
    expect(server.hits.map((h) => h.path)).toEqual(['/v1/runs/g2/events', '/v1/runs/g2', '/v1/runs/g2']);
  });
});
