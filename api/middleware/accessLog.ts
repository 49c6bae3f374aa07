import { performance } from 'node:perf_hooks';
import type { Middleware } from 'koa';
import type { AppContext, AppState } from '../context';
import type { Logger } from '../../platform/logger';

/**
 * The path as the access log writes it: a credential-free route's path carries its credential (a flow
 * hook's token, a shared run's token, an approval link's token), so the segment after `/hooks/<kind>/`,
 * `/shared/<kind>/` and `/approvals/` is written as `:redacted`. The query string (`?token=` of an app's
 * status page) is never written.
 */
export function loggedPath(path: string): string {
  if (path.startsWith('/approvals/')) return '/approvals/:redacted';
  const m = /^\/(hooks|shared)\/([^/]+)\/[^/]+/.exec(path);
  return m ? `/${m[1]}/${m[2]}/:redacted${path.slice(m[0].length)}` : path;
}

/** One line per request: method, path without the query string, status, duration. No headers, no bodies. */
export function accessLog(logger: Logger): Middleware<AppState> {
  // The line's keys are these seven, its values strings and numbers: no redaction path of platform/logger.ts
  // can apply to it, yet pino runs every value through the redactor, a third of the line's cost. A child
  // without redaction writes the same line; every other log keeps the guard.
  const lines = logger.child({}, { redact: [] });
  return (ctx, next) => {
    const started = performance.now();
    // written whether the rest of the chain succeeds or throws, as a `finally` would
    return next().then(
      () => writeLine(lines, ctx, started),
      (err: unknown) => {
        writeLine(lines, ctx, started);
        throw err;
      },
    );
  };
}

function writeLine(lines: Logger, ctx: AppContext, started: number): void {
  const identity = ctx.state.identity;
  lines.info(
    {
      reqId: ctx.state.requestId,
      method: ctx.method,
      path: loggedPath(ctx.path),
      status: ctx.status,
      ms: performance.now() - started,
      actor: identity?.actor,
      workspaceId: identity?.workspaceId,
    },
    'request',
  );
}
