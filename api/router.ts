import Router, { type Layer, type MatchResult } from '@koa/router';
import type { Middleware } from 'koa';
import type { AppState } from './context';
import { errors } from '../domain/errors';
import { authorize } from './middleware/auth';
import { deprecationHeaders } from './middleware/deprecation';
import { idempotency } from './middleware/idempotency';
import { ipRateLimit } from './middleware/rateLimit';
import { jsonBody } from './middleware/jsonBody';
import { validate } from './middleware/validate';
import type { ApiKeyCache } from '../domain/identity/apiKeyCache';
import type { Config } from '../platform/config';
import type { KeyRateLimiter } from './keyRateLimit';
import type { RateLimitStore } from './rateLimitStore';
import type { RouteDef } from './routes/route';

export interface RouterDeps {
  config: Config;
  rateLimits: RateLimitStore;
  keyLimits: KeyRateLimiter;
  apiKeys: ApiKeyCache;
}

/**
 * Mounts declared routes, each behind the same chain: per-IP limit → credentials and scope →
 * JSON body → schema validation → (POST) Idempotency-Key → handler. A route exists only through its declaration, so its
 * access rule and schemas are always known (test/api/routeDeclarations.test.ts checks it).
 */
export function buildRouter(routes: RouteDef[], deps: RouterDeps): Router<AppState> {
  const router = new Router<AppState>();
  const literals = literalPaths(routes);
  for (const route of routes) {
    const chain: Middleware<AppState>[] = [];
    if (route.path.includes(':')) chain.push(literalWins(literals));
    if (route.deprecated) chain.push(deprecationHeaders(route.deprecated, `${route.method} ${route.path}`));
    if (route.ipRateLimit) chain.push(ipRateLimit(route.ipRateLimit, deps));
    chain.push(authorize(route.access, deps));
    if (route.body) chain.push(jsonBody(deps.config.maxJsonBytes));
    chain.push(validate(route));
    if (route.method === 'POST') chain.push(idempotency(route));
    chain.push((ctx) => route.handler(ctx, ctx.state.input as never));
    router.register(route.path, [route.method], chain as never, { name: `${route.method} ${route.path}` });
  }
  indexByPrefix(router);
  return router;
}

type AppLayer = Layer<AppState>;

// A path segment that is plain text in a route's pattern (no parameter, wildcard, group or modifier).
const LITERAL = /^[^:*?+!(){}[\]\\]+$/;

/** The first two segments of a path, the part that tells most routes apart (`v1/runs`); case-folded like the match. */
function prefixOf(path: string): string {
  const [, first = '', second = ''] = path.split('/', 3);
  return `${first.toLowerCase()}/${second.toLowerCase()}`;
}

/**
 * The router tests every route's pattern against every request, in order: with ~190 routes that was a good
 * part of a request's work (bench/README.md, case 4). A route whose first two segments are literal text can
 * only match a path that starts with those two segments (the match is case-insensitive, so compared
 * case-folded); `match` tests only those routes and the ones with a parameter up front, still in the
 * router's order, so the layers matched, their order and the 404/405 answers are the same.
 */
function indexByPrefix(router: Router<AppState>): void {
  const literal = (layer: AppLayer) => {
    if (typeof layer.path !== 'string' || !layer.path.startsWith('/')) return undefined;
    const [, first, second = ''] = layer.path.split('/', 3);
    return LITERAL.test(first) && (second === '' || LITERAL.test(second)) ? prefixOf(layer.path) : undefined;
  };
  const prefixes = new Map<AppLayer, string | undefined>(router.stack.map((layer) => [layer, literal(layer)]));
  const anywhere = router.stack.filter((layer) => prefixes.get(layer) === undefined);
  const byPrefix = new Map<string, AppLayer[]>();
  for (const prefix of new Set(prefixes.values())) {
    if (prefix !== undefined) {
      byPrefix.set(
        prefix,
        router.stack.filter((layer) => prefixes.get(layer) === prefix || prefixes.get(layer) === undefined),
      );
    }
  }
  // the same result @koa/router's own `match` builds, over the candidates only
  router.match = (path: string, method: string): MatchResult<AppState> => {
    const result: MatchResult<AppState> = { path: [], pathAndMethod: [], route: false };
    const wanted = method.toUpperCase();
    for (const layer of byPrefix.get(prefixOf(path)) ?? anywhere) {
      if (!layer.match(path)) continue;
      result.path.push(layer);
      if (layer.methods.length === 0 || layer.methods.includes(wanted)) {
        result.pathAndMethod.push(layer);
        if (layer.methods.length > 0) result.route = true;
      }
    }
    return result;
  };
}

/** The methods declared on each path without parameters (`/v1/knowledge/search`). */
function literalPaths(routes: RouteDef[]): Map<string, string[]> {
  const literals = new Map<string, string[]>();
  for (const r of routes.filter((r) => !r.path.includes(':'))) {
    literals.set(r.path, [...(literals.get(r.path) ?? []), r.method]);
  }
  return literals;
}

/**
 * A declared literal path owns its URL: `PATCH /v1/knowledge/search` is 405 (only GET is declared there),
 * not a PATCH of a knowledge document whose id is "search" under `/v1/knowledge/:id`. Runs first in
 * the chain of every route with a parameter.
 */
function literalWins(literals: Map<string, string[]>): Middleware<AppState> {
  return (ctx, next) => {
    const allowed = literals.get(ctx.path);
    const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
    if (!allowed || allowed.includes(method)) return next();
    throw errors.methodNotAllowed(ctx.method, allowed);
  };
}

/** After the router: an unknown path is 404, a known path with another method is 405 with `Allow`. */
export function notFound(router: Router<AppState>): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined) return;
    const match = router.match(ctx.path, ctx.method);
    if (match.path.length > 0 && !match.route) {
      // a literal path owns its URL (see literalWins): only its own methods are allowed there
      const literal = match.path.filter((layer) => layer.paramNames.length === 0);
      const layers = literal.length > 0 ? literal : match.path;
      const allowed = [...new Set(layers.flatMap((layer) => layer.methods))].filter((m) => m !== 'HEAD');
      if (ctx.method === 'OPTIONS') {
        ctx.set('Allow', allowed.join(', '));
        ctx.status = 204;
        return;
      }
      throw errors.methodNotAllowed(ctx.method, allowed);
    }
    throw errors.notFound('Route');
  };
}
