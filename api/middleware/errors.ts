import type { Middleware } from 'koa';
import { isDatabaseUnavailable } from '../../platform/database/availability';
import { ApiError, errors } from '../../domain/errors';
import type { AppState } from '../context';
import type { Logger } from '../../platform/logger';

/** True when the failure means a dependency (PostgreSQL or Temporal) is down, not a bug. */
export function unavailableDependency(err: unknown): 'database' | 'temporal' | null {
  if (!err || typeof err !== 'object') return null;
  const e = err as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown };
  const message = typeof e.message === 'string' ? e.message : '';
  if (e.name === 'ServiceError' || e.name === 'TransportError' || /grpc|temporal/i.test(String(e.name))) {
    return 'temporal';
  }
  // gRPC status 14 UNAVAILABLE / 4 DEADLINE_EXCEEDED from the Temporal client
  if ((e.code === 14 || e.code === 4) && /UNAVAILABLE|DEADLINE|connect/i.test(message)) return 'temporal';
  if (isDatabaseUnavailable(err)) return 'database';
  return e.cause && e.cause !== err ? unavailableDependency(e.cause) : null;
}

/**
 * The one place that renders failures (after outline/outline's server/onerror.ts). Known errors keep their
 * code (docs/api/errors.md); a dependency outage becomes 503 `unavailable` with `Retry-After`; anything else is logged
 * with the request id and answered as a bare 500 `internal_error`, never with a stack.
 */
export function errorHandler(logger: Logger): Middleware<AppState> {
  return (ctx, next) =>
    next().catch((err: unknown) => {
      let apiError: ApiError;
      if (err instanceof ApiError) {
        apiError = err;
      } else {
        const down = unavailableDependency(err);
        if (down) {
          logger.warn({ reqId: ctx.state.requestId, dependency: down, err: describe(err) }, 'dependency unavailable');
          apiError = errors.unavailable(down === 'database' ? 'The database' : 'Temporal');
        } else {
          logger.error({ reqId: ctx.state.requestId, err: describe(err) }, 'unhandled error');
          apiError = errors.internal();
        }
      }
      ctx.status = apiError.status;
      for (const [name, value] of Object.entries(apiError.headers)) ctx.set(name, value);
      ctx.body = {
        error: {
          code: apiError.code,
          message: apiError.message,
          ...(apiError.details ? { details: apiError.details } : {}),
          requestId: ctx.state.requestId,
        },
      };
    });
}

// Only the error's kind, message and stack go to the log: never the request that caused it.
function describe(err: unknown): Record<string, unknown> {
  if (err instanceof Error) return { type: err.name, message: err.message, stack: err.stack };
  return { value: String(err) };
}
