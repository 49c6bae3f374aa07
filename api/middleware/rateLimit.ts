import ipaddr from 'ipaddr.js';
import type { Middleware } from 'koa';
import type { AppContext, AppState } from '../context';
import { errors } from '../../domain/errors';
import type { Config } from '../../platform/config';
import type { RateLimitCount, RateLimitStore } from '../rateLimitStore';

/**
 * Counts one request against `bucket` in the shared store, sets the `RateLimit-*` headers, and answers
 * 429 `rate_limited` with `Retry-After` over the limit (docs/api/limits.md).
 */
export async function enforceRateLimit(
  ctx: AppContext,
  store: RateLimitStore,
  bucket: string,
  limit: number,
): Promise<void> {
  setRateLimitHeaders(ctx, limit, await store.hit(ctx.state.em, bucket));
}

/** The `RateLimit-*` headers of a request counted `count` in its window, and 429 past `limit`. */
export function setRateLimitHeaders(ctx: AppContext, limit: number, counted: RateLimitCount): void {
  const reset = Math.max(1, counted.reset);
  ctx.set('RateLimit-Limit', String(limit));
  ctx.set('RateLimit-Remaining', String(Math.max(0, limit - counted.count)));
  ctx.set('RateLimit-Reset', String(reset));
  if (counted.count > limit) throw errors.rateLimited(reset);
}

const IP_LIMITS = {
  signin: (c: Config) => c.signInRatePerMin,
  signup: (c: Config) => c.signUpRatePerMin,
  shared: (c: Config) => c.sharedRatePerMin,
} as const;
export type IpRateLimit = keyof typeof IP_LIMITS;

/**
 * Sign-in, sign-up and shared run dashboards are limited per client, in the shared store. The client IP is Koa's `ctx.ip`: the
 * socket's address, or with `SVC_TRUST_PROXY=<hops>` the `X-Forwarded-For` entry that many from the right,
 * which the nearest trusted proxy wrote (entries further left are the client's to forge).
 */
export function ipRateLimit(
  kind: IpRateLimit,
  deps: { config: Config; rateLimits: RateLimitStore },
): Middleware<AppState> {
  const limit = IP_LIMITS[kind](deps.config);
  return async (ctx, next) => {
    await enforceRateLimit(ctx, deps.rateLimits, `${kind}:${clientSubject(ctx.ip)}`, limit);
    await next();
  };
}

/**
 * Whom a client IP counts as: an IPv4 address itself (an IPv4-mapped IPv6 address as that IPv4 address), an
 * IPv6 address its /64, since one subscriber usually holds a whole /64 and could otherwise rotate through it.
 * Anything unparseable (a misconfigured proxy) counts as its own text.
 */
export function clientSubject(ip: string): string {
  const text = unwrap(ip.trim());
  if (!ipaddr.isValid(text)) return `raw:${ip.slice(0, 100)}`;
  const addr = ipaddr.process(text);
  if (addr.kind() === 'ipv4') return addr.toString();
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}

// Some proxies write `1.2.3.4:5678` or `[2001:db8::1]:443`; the port is not part of who the client is.
function unwrap(text: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) return bracketed[1];
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(text);
  return v4WithPort ? v4WithPort[1] : text;
}
