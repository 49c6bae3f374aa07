import { performance } from 'node:perf_hooks';
import type { Middleware } from 'koa';
import type { AppState } from '../context';
import type { Metrics } from '../../platform/metrics/registry';

/**
 * Counts every request and its time by method, declared route (its path template, so `/v1/runs/:id` is one
 * series whatever the id) and status. A path no route declares is `unmatched`: a scanner's random paths
 * must not make a series each. Outside the error middleware, so a thrown error counts with the status it
 * was answered with.
 */
export function requestMetrics(metrics: Metrics): Middleware<AppState> {
  return (ctx, next) => {
    const started = performance.now();
    const record = () => {
      const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      const route = typeof matched === 'string' ? matched : ctx.path === '/metrics' ? '/metrics' : 'unmatched';
      const labels = { method: ctx.method, route, status: String(ctx.status) };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, (performance.now() - started) / 1000);
    };
    return next().then(record, (err: unknown) => {
      record();
      throw err;
    });
  };
}
