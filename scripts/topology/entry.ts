import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One API process behind the entry point. */
export interface Upstream {
  host: string;
  port: number;
}

export interface EntryPoint {
  url: string;
  /** Requests forwarded per upstream (`host:port`), and those answered 503 because none took them. */
  stats: { forwarded: Record<string, number>; refused: number };
  close(): Promise<void>;
}

// Headers of one connection, not of the request: never forwarded (RFC 9110, section 7.6.1).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers))
    if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
  return out;
}

/** An upstream that refused a connection is passed over for this long, unless every one has. */
const DOWN_MS = 2000;

/**
 * The topology's one entry point (docs/operations.md): a small reverse proxy on 127.0.0.1 that spreads
 * requests round-robin over the API processes. Bodies stream both ways (uploads, downloads and event
 * streams are never buffered), end-to-end headers pass as they are, and `X-Forwarded-For` gains the
 * client's address, which the APIs trust one hop deep (`SVC_TRUST_PROXY=1`), so per-client limits count
 * the client, not the proxy. A request whose upstream refuses the connection goes to the next one: its
 * body is only read once a connection stands, so nothing is lost or sent twice. When no upstream takes
 * it, the answer is the service's own 503 `unavailable` with `Retry-After`, which clients retry.
 */
export async function startEntryPoint(port: number, upstreams: Upstream[], host = '127.0.0.1'): Promise<EntryPoint> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const downUntil = new Map<Upstream, number>();
  const stats = { forwarded: {} as Record<string, number>, refused: 0 };
  let next = 0;

  const pick = (tried: Set<Upstream>): Upstream | undefined => {
    const fresh = upstreams.filter((u) => !tried.has(u));
    const up = fresh.filter((u) => (downUntil.get(u) ?? 0) <= Date.now());
    const pool = up.length ? up : fresh;
    if (!pool.length) return undefined;
    return pool[next++ % pool.length];
  };

  const refuse = (req: http.IncomingMessage, res: http.ServerResponse) => {
    stats.refused++;
    const requestId = (req.headers['x-request-id'] as string | undefined) ?? randomUUID();
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1', 'x-request-id': requestId });
    res.end(JSON.stringify({ error: { code: 'unavailable', message: 'No API process is reachable', requestId } }));
  };

  const forward = (req: http.IncomingMessage, res: http.ServerResponse, tried: Set<Upstream>) => {
    const upstream = pick(tried);
    if (!upstream) return refuse(req, res);
    tried.add(upstream);
    const headers = endToEnd(req.headers);
    const client = req.socket.remoteAddress ?? '';
    headers['x-forwarded-for'] = req.headers['x-forwarded-for']
      ? `${req.headers['x-forwarded-for']}, ${client}`
      : client;
    const out = http.request({
      host: upstream.host,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers,
      agent,
    });
    let bodySent = false;
    const sendBody = () => {
      bodySent = true;
      req.pipe(out);
    };
    out.on('socket', (socket: Socket) => (socket.connecting ? socket.once('connect', sendBody) : sendBody()));
    out.on('response', (answer) => {
      const key = `${upstream.host}:${upstream.port}`;
      stats.forwarded[key] = (stats.forwarded[key] ?? 0) + 1;
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    out.on('error', () => {
      if (!bodySent) {
        downUntil.set(upstream, Date.now() + DOWN_MS);
        forward(req, res, tried);
      } else if (!res.headersSent) {
        refuse(req, res);
      } else {
        res.destroy();
      }
    });
    // The client went away (a closed event stream, say): so does the upstream request.
    res.on('close', () => {
      if (!res.writableFinished) out.destroy();
    });
  };

  const server = http.createServer((req, res) => forward(req, res, new Set()));
  // Event streams stay open for as long as their reader wants.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const bound = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound.port}`,
    stats,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
