import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from '../context';

// Echo a caller's id only when it is a sane token, so logs cannot be polluted through the header.
const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Every response carries `X-Request-Id` (the caller's, else a new one). */
export function requestId(): Middleware<AppState> {
  // not async: nothing to do after the rest of the chain, so no promise of its own per request
  return (ctx, next) => {
    const given = ctx.get('X-Request-Id');
    ctx.state.requestId = ACCEPTABLE.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    return next();
  };
}
