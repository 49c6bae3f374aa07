import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Middleware } from 'koa';
import type { AppState } from '../context';
import { loggedPath } from './accessLog';

/**
 * A server span per request (docs/operations.md#traces), the parent of everything the request does: its
 * queries, and the workflow it starts, whose spans and its activities' join the same trace through the
 * Temporal client's interceptor. A caller's `traceparent` makes it a child of the caller's span. The span is
 * named by the declared route, and its path is the access log's, credential segments redacted.
 */
export function requestTracing(): Middleware<AppState> {
  const tracer = trace.getTracer('svc-api');
  return async (ctx, next) => {
    const parent = propagation.extract(context.active(), ctx.headers);
    const span = tracer.startSpan(
      ctx.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method, 'url.path': loggedPath(ctx.path) } },
      parent,
    );
    try {
      await context.with(trace.setSpan(parent, span), next);
    } finally {
      const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      const route = typeof matched === 'string' ? matched : undefined;
      span.updateName(`${ctx.method} ${route ?? 'unmatched'}`);
      if (route) span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', ctx.status);
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute('svc.request_id', ctx.state.requestId);
      span.end();
    }
  };
}
