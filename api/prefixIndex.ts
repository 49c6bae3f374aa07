import type Router from '@koa/router';
import type { Layer, MatchResult } from '@koa/router';
import type { AppState } from './context';

/*
 * A speed trick, kept in this one module: the router's `match` replaced by one that tests only the routes a
 * path's first two segments can match. @koa/router tests every route's pattern against every request, in
 * order; with ~190 routes that was a good part of a `GET /v1/runs/{id}`'s CPU. This index, with the cuts made
 * beside it (the view's statement through `pg`, the logger's batched writes, plain middleware functions), took
 * the API's CPU a GET from 300 to 209 µs (bench/cpuPerRequest.ts; bench/README.md, case 4).
 * test/api/routerIndex.test.ts holds it equal to @koa/router's own `match` over every declared route.
 */

type AppLayer = Layer<AppState>;

// A path segment that is plain text in a route's pattern (no parameter, wildcard, group or modifier).
const LITERAL = /^[^:*?+!(){}[\]\\]+$/;

/** The first two segments of a path, the part that tells most routes apart (`v1/runs`); case-folded like the match. */
function prefixOf(path: string): string {
  const [, first = '', second = ''] = path.split('/', 3);
  return `${first.toLowerCase()}/${second.toLowerCase()}`;
}

/**
 * Replaces `router.match`, once every route is registered. A route whose first two segments are literal text
 * can only match a path that starts with those two segments (the match is case-insensitive, so compared
 * case-folded); `match` tests only those routes and the ones with a parameter up front, still in the
 * router's order, so the layers matched, their order and the 404/405 answers are the same.
 */
export function indexByPrefix(router: Router<AppState>): void {
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
