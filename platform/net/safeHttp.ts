import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
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
  return send(url, addresses, init, remaining);
}

function send(
  url: URL,
  addresses: ResolvedAddress[],
  init: SafeRequestInit,
  remainingMs: number,
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
    agent: init.agent ?? false,
  };
  // SNI and certificate checks stay on the name the caller gave, not on the pinned address
  if (tls && net.isIP(host) === 0) options.servername = host;

  return new Promise<SafeResponse>((resolve, reject) => {
    let settled = false;
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
    req.on('error', fail);
    if (init.signal?.aborted) return onAbort();
    init.signal?.addEventListener('abort', onAbort, { once: true });
    req.end(init.body);
  });
}
