import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppState } from './context';
import { errors } from '../domain/errors';
import { authorize } from './middleware/auth';
import { deprecationHeaders } from './middleware/deprecation';
import { idempotency } from './middleware/idempotency';
import { ipRateLimit } from './middleware/rateLimit';
import { jsonBody } from './middleware/jsonBody';
import { validate } from './middleware/validate';
import { indexByPrefix } from './prefixIndex';
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
