import type { Middleware } from 'koa';
import { errors } from '../domain/errors';
import { safeEqual } from '../domain/identity/secrets';
import type { Metrics } from '../platform/metrics/registry';
import type { AppState } from './context';

/**
 * `GET /metrics` (docs/operations.md#metrics): the process's series in Prometheus text, only with the
 * operator's bearer token (`SVC_METRICS_TOKEN`); unset, the path does not exist (404); a missing or wrong
 * token is 401. Outside `/v1`: a scraper, not a caller of the API, reads it.
 */
export function metricsEndpoint(metrics: Metrics, token: string | undefined): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.path !== '/metrics' || !token) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw errors.methodNotAllowed(ctx.method, ['GET']);
    const given = /^Bearer (\S+)$/i.exec(ctx.get('authorization'))?.[1];
    if (!given || !safeEqual(given, token)) throw errors.unauthorized('Missing or invalid metrics token');
    const { contentType, body } = await metrics.scrape();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = body;
  };
}
