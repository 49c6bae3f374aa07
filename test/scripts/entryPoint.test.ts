import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEntryPoint, type EntryPoint } from '../../scripts/topology/entry';

// The topology's entry point (docs/operations.md) in front of two real HTTP servers on 127.0.0.1.

interface Api {
  name: string;
  port: number;
  server: http.Server;
  bodies: string[];
}

async function startApi(name: string): Promise<Api> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      if (req.url === '/stream') {
        // an event stream: the first event must reach the client before the response ends
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
        setTimeout(() => res.end('data: last\n\n'), 300);
        return;
      }
      res.writeHead(201, { 'content-type': 'application/json', 'x-served-by': name });
      res.end(
        JSON.stringify({ name, forwardedFor: req.headers['x-forwarded-for'] ?? null, auth: req.headers.authorization }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { name, port: (server.address() as AddressInfo).port, server, bodies };
}

const close = (s: http.Server) =>
  new Promise<void>((r) => {
    s.closeAllConnections();
    s.close(() => r());
  });

describe('the topology entry point', () => {
  let a: Api;
  let b: Api;
  let entry: EntryPoint;

  beforeEach(async () => {
    a = await startApi('a');
    b = await startApi('b');
    entry = await startEntryPoint(0, [
      { host: '127.0.0.1', port: a.port },
      { host: '127.0.0.1', port: b.port },
    ]);
  });

  afterEach(async () => {
    await entry.close();
    await close(a.server).catch(() => undefined);
    await close(b.server).catch(() => undefined);
  });

  it('spreads requests over both APIs, passing bodies and headers and naming the client in X-Forwarded-For', async () => {
    const served: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${entry.url}/v1/files`, {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'x-forwarded-for': '203.0.113.9' },
        body: `body-${i}`,
      });
      expect(res.status).toBe(201);
      const body = (await res.json()) as { name: string; forwardedFor: string | null; auth?: string };
      expect(res.headers.get('x-served-by')).toBe(body.name);
      expect(body.auth).toBe('Bearer k');
      expect(body.forwardedFor).toBe('203.0.113.9, 127.0.0.1');
      served.push(body.name);
    }
    expect(served.sort()).toEqual(['a', 'a', 'b', 'b']);
    expect([...a.bodies, ...b.bodies].sort()).toEqual(['body-0', 'body-1', 'body-2', 'body-3']);
  });

  it('streams a response as it comes', async () => {
    const res = await fetch(`${entry.url}/stream`);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString('utf8')).toBe('data: first\n\n');
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += Buffer.from(r.value).toString('utf8');
    expect(rest).toBe('data: last\n\n');
  });

  it('sends every request to the API that is up when the other refuses connections, each body once', async () => {
    await close(a.server);
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${entry.url}/v1/runs`, { method: 'POST', body: `run-${i}` });
      expect(res.status).toBe(201);
      expect(((await res.json()) as { name: string }).name).toBe('b');
    }
    expect(b.bodies).toEqual(['run-0', 'run-1', 'run-2', 'run-3']);
  });

  it("answers the service's 503 unavailable with Retry-After when no API is up", async () => {
    await close(a.server);
    await close(b.server);
    const res = await fetch(`${entry.url}/v1/runs`, { headers: { 'x-request-id': 'req-1' } });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toEqual({
      error: { code: 'unavailable', message: 'No API process is reachable', requestId: 'req-1' },
    });
  });
});
