import Router from '@koa/router';
import { startApi, type Harness } from '../helpers/harness';

/**
 * The router tests only the routes a path's first two segments can match (api/prefixIndex.ts): for every
 * declared path, filled in, cased and cut in the ways a caller might send it, it must find exactly the
 * layers @koa/router's own `match` finds, in the same order, for every method.
 */
describe('router prefix index', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  it('matches exactly as the full scan does', () => {
    const paths = new Set<string>([
      '/',
      '//',
      '/v1',
      '/v1/',
      '/x',
      '/v1//runs',
      '/console/x',
      '/healthz/',
      '/V1/RUNS/abc',
    ]);
    for (const { path } of h.routes) {
      const filled = path.replace(/:[A-Za-z]+/g, 'abc');
      for (const p of [path, filled, `${filled}/`, filled.toUpperCase(), `${filled}/x`, `/${filled}`]) paths.add(p);
      paths.add(filled.replace(/\/[^/]*$/, '') || '/');
    }
    const names = (layers: Array<{ name?: string }>) => layers.map((l) => l.name);
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']) {
        const indexed = h.router.match(path, method);
        const scanned = Router.prototype.match.call(h.router, path, method);
        expect([path, method, names(indexed.path), names(indexed.pathAndMethod), indexed.route]).toEqual([
          path,
          method,
          names(scanned.path),
          names(scanned.pathAndMethod),
          scanned.route,
        ]);
      }
    }
  });
});
