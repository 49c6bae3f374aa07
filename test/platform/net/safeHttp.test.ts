import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { NotPublicAddressError, type Resolver } from '../../../platform/net/publicAddress';
import { CheckedConnections, safeRequest } from '../../../platform/net/safeHttp';

// Redirects never followed, the address checked on every attempt and connected to: real receivers, all on 127.0.0.1.

interface Receiver {
  port: number;
  url: string;
  connections: number;
  /** Connections open at the receiver right now. */
  open(): number;
  requests: Array<{ method?: string; url?: string; headers: http.IncomingHttpHeaders; body: Buffer }>;
  close(): Promise<void>;
}

const open: Receiver[] = [];

async function receiver(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.requests.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
      handler(req, res);
    });
  });
  server.on('connection', (s) => {
    r.connections += 1;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const r: Receiver = {
    port,
    url: `http://127.0.0.1:${port}`,
    connections: 0,
    open: () => sockets.size,
    requests: [],
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  open.push(r);
  return r;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('safeRequest against a real receiver (allowPrivate)', () => {
  it('POSTs the body byte-identical with the caller headers', async () => {
    const rx = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'x-reply': 'yes' }).end('ok');
    });
    const body = Buffer.from([0x7b, 0x00, 0xff, 0xfe, 0x0a, 0xe2, 0x82, 0xac, 0x7d]);
    const res = await safeRequest(`${rx.url}/hooks/in?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-signature': 't=1,v1=abc' },
      body,
      timeoutMs: 2000,
      allowPrivate: true,
    });
    expect(res).toMatchObject({ status: 200, truncated: false });
    expect(res.body.toString()).toBe('ok');
    expect(res.headers['x-reply']).toBe('yes');
    expect(rx.requests).toHaveLength(1);
    const got = rx.requests[0];
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/hooks/in?x=1');
    expect(got.body.equals(body)).toBe(true);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-svc-signature']).toBe('t=1,v1=abc');
    expect(got.headers['content-length']).toBe(String(body.length));
  });

  it('connects a hostname to the pinned answer of the resolver and keeps it as Host', async () => {
    const rx = await receiver((_req, res) => res.end('named'));
    const resolver = jest.fn<ReturnType<Resolver>, Parameters<Resolver>>(async () => [
      { address: '127.0.0.1', family: 4 },
    ]);
    const res = await safeRequest(`http://receiver.test:${rx.port}/`, {
      method: 'GET',
      timeoutMs: 2000,
      allowPrivate: true,
      resolver,
    });
    expect(res.body.toString()).toBe('named');
    expect(rx.requests[0].headers.host).toBe(`receiver.test:${rx.port}`);
    expect(resolver).toHaveBeenCalledTimes(1);
  });

  it('returns a 302 as it is and never contacts the Location target', async () => {
    const target = await receiver((_req, res) => res.end('should never be reached'));
    const rx = await receiver((_req, res) => res.writeHead(302, { location: `${target.url}/stolen` }).end());
    const res = await safeRequest(`${rx.url}/`, { method: 'POST', body: '{}', timeoutMs: 2000, allowPrivate: true });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`${target.url}/stolen`);
    await pause(100);
    expect(rx.requests).toHaveLength(1);
    expect(target.connections).toBe(0);
    expect(target.requests).toHaveLength(0);
  });

  it('rejects with a timeout when the receiver never answers, within about timeoutMs', async () => {
    const rx = await receiver(() => undefined); // reads the request, never responds
    const started = Date.now();
    await expect(safeRequest(`${rx.url}/`, { method: 'GET', timeoutMs: 300, allowPrivate: true })).rejects.toThrow(
      'timeout after 300 ms',
    );
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(1500);
    expect(rx.connections).toBe(1);
  });

  it('aborts an in-flight request when its signal fires (a cancelled run), closing the connection', async () => {
    let closed = false;
    const rx = await receiver((req) => req.socket.on('close', () => (closed = true))); // never responds
    const ctrl = new AbortController();
    const pending = safeRequest(`${rx.url}/`, {
      method: 'GET',
      timeoutMs: 10_000,
      allowPrivate: true,
      signal: ctrl.signal,
    });
    while (rx.requests.length === 0) await pause(10);
    ctrl.abort(new Error('run cancelled'));
    await expect(pending).rejects.toThrow('run cancelled');
    for (let i = 0; i < 100 && !closed; i++) await pause(10);
    expect(closed).toBe(true);
  });

  it('times out a response body that trickles forever', async () => {
    const rx = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const tick = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(tick));
    });
    await expect(safeRequest(`${rx.url}/`, { method: 'GET', timeoutMs: 300, allowPrivate: true })).rejects.toThrow(
      'timeout after 300 ms',
    );
  });

  it('rejects when the receiver destroys the socket mid-response', async () => {
    const rx = await receiver((req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('only ten b');
      setTimeout(() => req.socket.destroy(), 20);
    });
    // the drop itself must be the reason, not the 2 s timeout catching it later
    await expect(safeRequest(`${rx.url}/`, { method: 'GET', timeoutMs: 2000, allowPrivate: true })).rejects.toThrow(
      /aborted|closed mid-response/,
    );
  });

  it('rejects when a chunked response is cut before its last chunk', async () => {
    const rx = await receiver((req, res) => {
      res.writeHead(200);
      res.write('partial');
      setTimeout(() => req.socket.destroy(), 20);
    });
    // the drop itself must be the reason, not the 2 s timeout catching it later
    await expect(safeRequest(`${rx.url}/`, { method: 'GET', timeoutMs: 2000, allowPrivate: true })).rejects.toThrow(
      /aborted|closed mid-response/,
    );
  });

  it('opens a fresh connection per call, so no pooled socket outlives the check it was made for', async () => {
    const rx = await receiver((_req, res) => res.end('ok'));
    for (let i = 0; i < 2; i += 1) {
      await safeRequest(`${rx.url}/`, { method: 'GET', timeoutMs: 2000, allowPrivate: true });
    }
    expect(rx.requests).toHaveLength(2);
    expect(rx.connections).toBe(2);
  });

  it('reuses a connection of a CheckedConnections batch only for the same checked addresses, none after close', async () => {
    const rx = await receiver((_req, res) => res.end('ok'));
    const connections = new CheckedConnections();
    let answer: Array<{ address: string; family: 4 | 6 }> = [{ address: '127.0.0.1', family: 4 }];
    const resolver: Resolver = async () => answer;
    const get = () =>
      safeRequest(`http://receiver.test:${rx.port}/`, {
        method: 'GET',
        timeoutMs: 2000,
        allowPrivate: true,
        resolver,
        connections,
      });
    await get();
    await get();
    // checked again each time, one connection
    expect(rx.requests).toHaveLength(2);
    expect(rx.connections).toBe(1);
    // another answer for the name: a connection of its own, pinned to what this check returned
    answer = [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ];
    await get();
    expect(rx.connections).toBe(2);
    connections.close();
    await get();
    expect(rx.requests).toHaveLength(4);
    expect(rx.connections).toBe(3);
  });

  it('closes a CheckedConnections connection once it has been idle for idleMs, and drops its agent later', async () => {
    const rx = await receiver((_req, res) => res.end('ok'));
    const connections = new CheckedConnections({ idleMs: 200 });
    const get = () => safeRequest(`${rx.url}/`, { method: 'GET', timeoutMs: 2000, allowPrivate: true, connections });
    try {
      await get();
      await get();
      expect(rx.connections).toBe(1);
      expect(rx.open()).toBe(1);
      // idle past idleMs: the connection is closed by us, and the next request opens a new one
      await new Promise((r) => setTimeout(r, 500));
      expect(rx.open()).toBe(0);
      await get();
      expect(rx.connections).toBe(2);
      expect(connections.size).toBe(1);
      // an agent unused for twice idleMs is dropped when the next request comes, to another origin
      await new Promise((r) => setTimeout(r, 500));
      const other = await receiver((_req, res) => res.end('ok'));
      await safeRequest(`${other.url}/`, { method: 'GET', timeoutMs: 2000, allowPrivate: true, connections });
      expect(connections.size).toBe(1);
    } finally {
      connections.close();
    }
  });

  it('counts the CheckedConnections connections still opening, until they connect or fail', async () => {
    const rx = await receiver((_req, res) => res.end('ok'));
    const refused = await receiver(() => undefined);
    await refused.close();
    const connections = new CheckedConnections();
    // process.nextTick never lets the event loop poll, so no connect can complete while this waits
    const ticksUntil = async (done: () => boolean) => {
      for (let i = 0; i < 1000 && !done(); i++) await new Promise<void>((r) => process.nextTick(r));
    };
    const get = (url: string) =>
      safeRequest(`${url}/`, { method: 'GET', timeoutMs: 2000, allowPrivate: true, connections });
    try {
      expect(connections.connecting).toBe(0);
      const answers = Promise.all([get(rx.url), get(rx.url), get(rx.url)]);
      const failure = get(refused.url).catch((err: NodeJS.ErrnoException) => err.code);
      await ticksUntil(() => connections.connecting === 4);
      expect(connections.connecting).toBe(4);
      expect((await answers).map((r) => r.status)).toEqual([200, 200, 200]);
      expect(await failure).toBe('ECONNREFUSED');
      expect(connections.connecting).toBe(0);
      // a reused connection opens nothing
      const again = get(rx.url);
      await ticksUntil(() => connections.connecting > 0);
      expect(connections.connecting).toBe(0);
      expect((await again).status).toBe(200);
      expect(rx.connections).toBe(3);
    } finally {
      connections.close();
    }
  });

  it('sends once more on a connection of its own when a reused one is closed before the answer', async () => {
    const seen = new Set<Socket>();
    // answers the first request of each connection and drops any later one unanswered
    const rx = await receiver((req, res) => {
      if (seen.has(req.socket)) req.socket.destroy();
      else {
        seen.add(req.socket);
        res.end('ok');
      }
    });
    const connections = new CheckedConnections();
    const post = () =>
      safeRequest(`${rx.url}/`, { method: 'POST', body: 'x', timeoutMs: 2000, allowPrivate: true, connections });
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(200);
    expect(rx.connections).toBe(2);
    connections.close();
  });

  it('rejects on a refused connection', async () => {
    const rx = await receiver(() => undefined);
    const url = rx.url;
    await rx.close();
    await expect(safeRequest(`${url}/`, { method: 'GET', timeoutMs: 2000, allowPrivate: true })).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });

  it('truncates a large response at 64 KiB by default instead of failing', async () => {
    const big = Buffer.alloc(300 * 1024, 0x61);
    const rx = await receiver((_req, res) => res.end(big));
    const res = await safeRequest(`${rx.url}/`, { method: 'GET', timeoutMs: 2000, allowPrivate: true });
    expect(res.status).toBe(200);
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBe(64 * 1024);
    expect(res.body.equals(big.subarray(0, 64 * 1024))).toBe(true);
  });

  it('honours maxResponseBytes, and a body of exactly the cap is not truncated', async () => {
    const rx = await receiver((_req, res) => res.end('0123456789'));
    const get = (maxResponseBytes: number) =>
      safeRequest(`${rx.url}/`, { method: 'GET', timeoutMs: 2000, allowPrivate: true, maxResponseBytes });
    const cut = await get(4);
    expect(cut).toMatchObject({ truncated: true });
    expect(cut.body.toString()).toBe('0123');
    const exact = await get(10);
    expect(exact).toMatchObject({ truncated: false });
    expect(exact.body.toString()).toBe('0123456789');
  });
});

/** An agent that asks the request's `lookup` where to connect, records the answer and then connects NOWHERE. */
class RecordingAgent extends http.Agent {
  readonly attempts: Array<{ host: string | null | undefined; resolved: unknown }> = [];

  override createConnection(
    options: http.ClientRequestArgs,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | undefined {
    const lookup = options.lookup;
    if (!lookup) throw new Error('safeRequest must pass a lookup');
    lookup(options.host ?? '', { all: true }, (err, resolved) => {
      this.attempts.push({ host: options.host, resolved: err ?? resolved });
      // fail the request without a socket: nothing is ever connected
      callback?.(new Error('recording agent: connection refused by design'), undefined as unknown as Duplex);
    });
    return undefined;
  }
}

describe('safeRequest without allowPrivate', () => {
  it('connects to the address it checked, even when DNS rebinds to 127.0.0.1 afterwards', async () => {
    const victim = await receiver((_req, res) => res.end('internal secret'));
    const answers = ['8.8.8.8', '127.0.0.1'];
    const resolver = jest.fn<ReturnType<Resolver>, Parameters<Resolver>>(async () => [
      { address: answers.shift() ?? '127.0.0.1', family: 4 },
    ]);
    const agent = new RecordingAgent();
    const url = `http://rebind.test:${victim.port}/hook`;

    // first call: checked 8.8.8.8, so the only address the connection may use is 8.8.8.8
    const init = { method: 'POST', body: 'x', timeoutMs: 2000, allowPrivate: false, resolver, agent } as const;
    await expect(safeRequest(url, init)).rejects.toThrow('connection refused by design');
    expect(resolver).toHaveBeenCalledTimes(1);
    expect(agent.attempts).toEqual([{ host: 'rebind.test', resolved: [{ address: '8.8.8.8', family: 4 }] }]);

    // second call: re-validated, now 127.0.0.1, refused before any connection
    await expect(safeRequest(url, init)).rejects.toBeInstanceOf(NotPublicAddressError);
    expect(resolver).toHaveBeenCalledTimes(2);
    expect(agent.attempts).toHaveLength(1);

    await pause(50);
    expect(victim.connections).toBe(0);
    expect(victim.requests).toHaveLength(0);
  });

  it('refuses a name resolving to 127.0.0.1 with NotPublicAddressError before any connection', async () => {
    const victim = await receiver((_req, res) => res.end('internal secret'));
    const resolver: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const err = await safeRequest(`http://evil.test:${victim.port}/`, {
      method: 'GET',
      timeoutMs: 2000,
      allowPrivate: false,
      resolver,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotPublicAddressError);
    expect((err as NotPublicAddressError).reason).toMatch(/loopback address 127\.0\.0\.1/);
    await pause(50);
    expect(victim.connections).toBe(0);
  });

  it('refuses a loopback literal in any spelling before any connection', async () => {
    const victim = await receiver((_req, res) => res.end('internal secret'));
    for (const host of ['127.0.0.1', '2130706433', '0x7f.1', '[::ffff:127.0.0.1]']) {
      await expect(
        safeRequest(`http://${host}:${victim.port}/`, { method: 'GET', timeoutMs: 2000, allowPrivate: false }),
      ).rejects.toBeInstanceOf(NotPublicAddressError);
    }
    await pause(50);
    expect(victim.connections).toBe(0);
  });

  it('counts a resolver that hangs against the same timeout', async () => {
    const resolver: Resolver = () => new Promise(() => undefined);
    await expect(
      safeRequest('https://slow.test/', { method: 'GET', timeoutMs: 200, allowPrivate: false, resolver }),
    ).rejects.toThrow('timeout after 200 ms');
  });
});
