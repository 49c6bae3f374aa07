import type { Middleware } from 'koa';
import type { AppState } from '../context';
import type { Logger } from '../../platform/logger';

/** One line per request: method, path without the query string, status, duration. No headers, no bodies. */
export function accessLog(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const identity = ctx.state.identity;
      logger.info(
        {
          reqId: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          actor: identity?.actor,
          workspaceId: identity?.workspaceId,
        },
        'request',
      );
    }
  };
}
