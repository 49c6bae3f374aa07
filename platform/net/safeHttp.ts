import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { pinnedLookup, resolvePublicUrl, type ResolvedAddress, type Resolver } from './publicAddress';

/**
 * One outbound HTTP request to a URL that has just been checked as public: webhook deliveries and the agents'
 * `http_request` tool. Node's http/https rather than fetch, because only they accept a `lookup` that pins the
 * connection to the checked addresses (no DNS-rebinding window: an answer that changes after the check is never used).
 */

export interface SafeRequestInit {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Overall budget: DNS resolution, connect and the whole response. */
  timeoutMs: number;
  /** The body is cut at this many bytes (default 64 KiB) and `truncated` is set; the request does not fail. */
  maxResponseBytes?: number;
  /**
   * Skip the public-address checks (local development): `SVC_ALLOW_PRIVATE_WEBHOOKS` for webhook deliveries,
   * `SVC_ALLOW_PRIVATE_EGRESS` for every other call.
   */
  allowPrivate: boolean;
  resolver?: Resolver;
  /** Test hook. The default is a fresh agent per call, so no pooled socket outlives the check it was made for. */
  agent?: http.Agent;
  /**
   * Keep-alive connections shared by requests to the same receivers (webhook deliveries): a request reuses
   * an idle connection only to an address checked for this very request (see {@link CheckedConnections}).
   */
  connections?: CheckedConnections;
  /** Aborts the request at any point (a cancelled run): it rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface SafeResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  truncated: boolean;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Keep-alive connections to checked addresses, shared by the requests of one process that go to the same
 * receivers: a webhook fan-out sends up to a hundred requests, often to a few receivers, and the next
 * fan-out goes to the same ones; a new connection (a TLS handshake, for https) per request or per fan-out
 * costs both sides more CPU than the request itself. Every request is still checked on its own
 * (resolvePublicUrl); it reuses an idle connection only when that connection was opened to exactly the
 * addresses this request's check returned (one agent per origin and checked address set), so a changed
 * DNS answer gets a new connection to the newly checked address. An idle connection is closed after
 * `idleMs` (below the 5 s most servers keep one open, so a receiver rarely closes one just as it is
 * reused), and an agent with nothing open is dropped; `close()` ends them all at once.
 */
export class CheckedConnections {
  private readonly agents = new Map<string, { agent: http.Agent; usedAt: number }>();
  private closed = false;
  private sweptAt = Date.now();
  private opening = 0;

  constructor(private readonly opts: { idleMs: number } = { idleMs: 2_000 }) {}

  /** The agent for `url` pinned to `addresses`; null once closed (the request then gets a connection of its own). */
  agentFor(url: URL, addresses: ReadonlyArray<ResolvedAddress>): http.Agent | null {
    if (this.closed) return null;
    const now = Date.now();
    if (now - this.sweptAt >= this.opts.idleMs) this.sweep(now);
    const key = `${url.protocol}//${url.host} ${addresses.map((a) => a.address).join(' ')}`;
    let entry = this.agents.get(key);
    if (!entry) {
      // `timeout` closes a connection once it has been idle that long (Node's agent destroys only free
      // sockets on it; a request in flight keeps its own budget); Node shortens it to a receiver's
      // `Keep-Alive: timeout` hint when that is lower
      const options = { keepAlive: true, scheduling: 'lifo' as const, timeout: this.opts.idleMs };
      entry = { agent: url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options), usedAt: now };
      this.countConnects(entry.agent);
      this.agents.set(key, entry);
    }
    entry.usedAt = now;
    return entry.agent;
  }

  /**
   * Connections begun and not yet ready to carry a request (TCP connected, and for https the TLS handshake
   * done), or ended first. A request on such a connection is written only once Node's event loop has polled
   * for it, so a sender of many requests in one go yields a whole turn while this is above zero (firstAttempts.ts).
   */
  get connecting(): number {
    return this.opening;
  }

  /** How many agents are kept (one per origin and checked address set still in use). */
  get size(): number {
    return this.agents.size;
  }

  /** Closes every connection, idle or not; later requests open their own. */
  close(): void {
    this.closed = true;
    for (const { agent } of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  /** Counts each connection `agent` opens from its start until it is ready or ends (`connecting`). */
  private countConnects(agent: http.Agent): void {
    const open = agent.createConnection.bind(agent);
    agent.createConnection = (options, callback) => {
      const socket = open(options, callback);
      if (socket instanceof net.Socket && socket.connecting) {
        this.opening++;
        const ready = socket instanceof tls.TLSSocket ? 'secureConnect' : 'connect';
        const done = () => {
          socket.off(ready, done);
          socket.off('close', done);
          this.opening--;
        };
        socket.once(ready, done);
        socket.once('close', done);
      }
      return socket;
    };
  }

  /**
   * Drops the agents unused for longer than a connection stays idle and with no request in flight (a
   * hanging receiver's attempt keeps its agent): their idle connections are closed by then.
   */
  private sweep(now: number): void {
    this.sweptAt = now;
    for (const [key, { agent, usedAt }] of this.agents) {
      if (now - usedAt < 2 * this.opts.idleMs) continue;
      if (Object.keys(agent.sockets).length > 0 || Object.keys(agent.requests).length > 0) continue;
      agent.destroy();
      this.agents.delete(key);
    }
  }
}

/** A reused keep-alive connection the peer closed before answering: the request never reached it whole. */
class StaleConnectionError extends Error {}

function staleConnection(err: unknown, req: http.ClientRequest, answered: boolean): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return req.reusedSocket && !answered && (code === 'ECONNRESET' || code === 'EPIPE');
}

function timeoutError(ms: number): Error {
  return Object.assign(new Error(`timeout after ${ms} ms`), { code: 'ETIMEDOUT' });
}

/** Races `p` against the budget; the loser is ignored (dns.lookup cannot be cancelled, only stopped waiting for). */
function within<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(timeoutError(ms)), ms);
    p.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e: unknown) => (clearTimeout(timer), reject(e)),
    );
  });
}

/**
 * Sends one GET/POST to `raw` after resolving and checking it with `resolvePublicUrl` on EVERY call, connecting
 * only to the checked addresses. Redirects are never followed: a 3xx comes back as it is and the caller treats it
 * as a failure (a webhook receiver's redirect is never followed). The response body is capped at `maxResponseBytes`.
 * @throws {NotPublicAddressError} before any connection when the URL or one of its addresses is not public.
 * @throws Error `timeout after N ms` when resolution + connect + response exceed `timeoutMs`; the request is
 *   destroyed.
 * @throws the socket error when the connection fails, or `connection closed mid-response` when it drops early.
 */
export async function safeRequest(raw: string, init: SafeRequestInit): Promise<SafeResponse> {
  const started = Date.now();
  init.signal?.throwIfAborted();
  // re-validated on every attempt (webhooks and tools alike), never taken from a cache
  const checked = resolvePublicUrl(raw, { allowPrivate: init.allowPrivate, resolver: init.resolver });
  const { url, addresses } = await within(checked, init.timeoutMs);
  const remaining = init.timeoutMs - (Date.now() - started);
  if (remaining <= 0) throw timeoutError(init.timeoutMs);
  const agent = init.agent ?? init.connections?.agentFor(url, addresses) ?? undefined;
  if (!agent) return send(url, addresses, init, remaining, false);
  try {
    return await send(url, addresses, init, remaining, agent);
  } catch (err) {
    // An idle connection the receiver closed just as we reused it (Node's documented race): send once
    // more on a connection of its own, to the same checked addresses, within what is left of the budget.
    if (!(err instanceof StaleConnectionError)) throw err;
    const left = init.timeoutMs - (Date.now() - started);
    if (left <= 0) throw timeoutError(init.timeoutMs);
    return send(url, addresses, init, left, false);
  }
}

function send(
  url: URL,
  addresses: ResolvedAddress[],
  init: SafeRequestInit,
  remainingMs: number,
  agent: http.Agent | false,
): Promise<SafeResponse> {
  const maxBytes = init.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const tls = url.protocol === 'https:';
  const options: https.RequestOptions = {
    protocol: url.protocol,
    hostname: host,
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    method: init.method,
    headers: init.headers ?? {},
    // the socket goes to an address resolvePublicUrl checked, never to a fresh DNS answer
    lookup: pinnedLookup(addresses),
    agent,
  };
  // SNI and certificate checks stay on the name the caller gave, not on the pinned address
  if (tls && net.isIP(host) === 0) options.servername = host;

  return new Promise<SafeResponse>((resolve, reject) => {
    let settled = false;
    let answered = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      init.signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const fail = (err: Error) => finish(() => reject(err));
    const onAbort = () => {
      fail(init.signal!.reason instanceof Error ? init.signal!.reason : new Error('request aborted'));
      req.destroy();
    };

    const req = (tls ? https : http).request(options, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const done = () =>
        finish(() =>
          resolve({ status: res.statusCode ?? 0, headers: { ...res.headers }, body: Buffer.concat(chunks), truncated }),
        );
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = maxBytes - size;
        if (chunk.length > room) {
          // keep what fits and stop reading: a large or endless body must not cost more than the cap
          chunks.push(chunk.subarray(0, room));
          size = maxBytes;
          truncated = true;
          done();
          req.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', done);
      res.on('error', fail);
      res.on('close', () => {
        if (!res.complete) fail(new Error('connection closed mid-response'));
      });
    });

    // one budget for connect + response; settle first so the destroy's own errors cannot win the race
    const timer = setTimeout(() => {
      fail(timeoutError(init.timeoutMs));
      req.destroy();
    }, remainingMs);
    req.on('error', (err) => fail(staleConnection(err, req, answered) ? new StaleConnectionError(err.message) : err));
    if (init.signal?.aborted) return onAbort();
    init.signal?.addEventListener('abort', onAbort, { once: true });
    req.end(init.body);
  });
}
