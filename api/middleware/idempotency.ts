import type { Middleware } from 'koa';
import type { AppState } from '../context';
import { errors } from '../../domain/errors';
import {
  CLAIM_RENEW_MS,
  claimKey,
  completeKey,
  releaseKey,
  renewKey,
  type KeyScope,
} from '../../domain/shared/idempotency/keys';
import { requestHash } from '../../domain/shared/idempotency/fingerprint';
import type { RouteDef } from '../routes/route';

const HEADER = 'Idempotency-Key';
/** Up to 255 visible ASCII characters (a UUID is the usual choice). */
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/**
 * Idempotency-Key on a POST route (docs/api/limits.md#idempotency): the first request with a key acts and
 * its answer is kept for 24 hours; a repeat with the same request gets that answer again (with
 * `Idempotent-Replayed: true`) without acting; a different request under the key is 409 `conflict`. A
 * request that failed (an error, or a 5xx) gives its key back, so the retry acts. Keys are scoped per
 * workspace and route; unauthenticated routes (sign-in, sign-up) have no workspace and ignore the header.
 */
export function idempotency(route: RouteDef): Middleware<AppState> {
  const mode = route.idempotency ?? 'replay';
  const name = `${route.method} ${route.path}`;
  return async (ctx, next) => {
    const key = sentKey(ctx);
    if (key === null) return next();
    const workspaceId = ctx.state.identity?.workspaceId;
    if (mode === 'own' || !workspaceId) return next();
    const scope: KeyScope = { workspaceId, route: name, key };
    const claim = await claimKey(ctx.state.em, scope, fingerprint(route, ctx));
    if (claim.kind === 'replay') {
      const { status, body } = claim.response;
      if (mode === 'secret') {
        // The answer carried a secret shown once: it is not kept, so a repeat cannot show it again.
        throw errors.conflict(
          'This Idempotency-Key already created a resource whose secret was shown once; revoke it and create another',
          { id: body === null ? null : ((JSON.parse(body) as { id?: string }).id ?? null) },
        );
      }
      ctx.status = status;
      if (body !== null) {
        ctx.type = 'application/json';
        ctx.body = body;
      }
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    // renewed while the request runs, so that only a dead process's claim is ever taken over
    const renewal = setInterval(() => {
      renewKey(ctx.state.em.fork(), scope).catch(() => undefined);
    }, CLAIM_RENEW_MS);
    renewal.unref();
    try {
      await next();
    } catch (err) {
      await releaseKey(ctx.state.em, scope).catch(() => undefined);
      throw err;
    } finally {
      clearInterval(renewal);
    }
    if (ctx.status >= 500) {
      await releaseKey(ctx.state.em, scope);
      return;
    }
    const answer = ctx.body === undefined || ctx.body === null ? null : ctx.body;
    const kept = mode === 'secret' ? { id: (answer as { id?: string } | null)?.id ?? null } : answer;
    // Koa serialises a body object with JSON.stringify too: the replay sends the same bytes.
    await completeKey(ctx.state.em, scope, { status: ctx.status, body: kept === null ? null : JSON.stringify(kept) });
  };
}

/**
 * The request's `Idempotency-Key`, or null when none was sent. A key sent is checked on every POST, even
 * where it changes nothing.
 * @throws ApiError 400 `validation_error` for an empty or malformed key
 */
export function sentKey(ctx: Parameters<Middleware<AppState>>[0]): string | null {
  const sent = ctx.headers['idempotency-key'];
  if (sent === undefined) return null;
  const key = Array.isArray(sent) ? sent.join(', ') : sent;
  if (!KEY_FORMAT.test(key)) {
    throw errors.validation([{ path: HEADER, message: 'Use 1 to 255 visible ASCII characters' }]);
  }
  return key;
}

/**
 * What makes two requests "the same": path parameters, query and validated JSON body; for a raw upload,
 * its declared type, name and length (the bytes stream to storage and are not read twice).
 */
function fingerprint(route: RouteDef, ctx: Parameters<Middleware<AppState>>[0]): string {
  const { params, query, body } = ctx.state.input;
  const raw = route.rawBody
    ? { type: ctx.get('Content-Type'), filename: ctx.get('X-Filename'), length: ctx.get('Content-Length') }
    : null;
  return requestHash({ params: params ?? null, query: query ?? null, body: body ?? null, raw });
}
