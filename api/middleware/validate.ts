import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import type { ZodType } from 'zod';
import type { AppState } from '../context';
import { errors, type ValidationIssue } from '../../domain/errors';
import type { RouteDef } from '../routes/route';

/**
 * JSON body parsing for routes that take a JSON body. A body that is present but not JSON is 415,
 * unparsable JSON is 400 `invalid_json`, over `SVC_MAX_JSON_BYTES` is 413 `payload_too_large`.
 */
export function jsonBody(maxBytes: number): Middleware<AppState> {
  const parse = koaBody({
    json: true,
    urlencoded: false,
    text: false,
    multipart: false,
    jsonLimit: maxBytes,
    // Accept any JSON value; the route's schema gives a precise validation_error for non-objects.
    jsonStrict: false,
    onError: (err) => {
      const e = err as Error & { status?: number; type?: string };
      if (e.status === 413 || e.type === 'entity.too.large') throw errors.payloadTooLarge(maxBytes);
      if (e.status === 400 || e.type === 'entity.parse.failed' || e instanceof SyntaxError) throw errors.invalidJson();
      throw err;
    },
  });
  return async (ctx, next) => {
    const declared = Number(ctx.get('Content-Length') || 0);
    const hasBody = declared > 0 || Boolean(ctx.get('Transfer-Encoding'));
    if (hasBody && !ctx.is('application/json', '+json')) throw errors.unsupportedMediaType('application/json');
    // Refuse early on the declared length, without reading the bytes.
    if (declared > maxBytes) throw errors.payloadTooLarge(maxBytes);
    await parse(ctx, async () => undefined);
    if (!hasBody) ctx.request.body = undefined;
    await next();
  };
}

function toIssues(error: { issues: Array<{ path: PropertyKey[]; message: string }> }): ValidationIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

function check<T>(schema: ZodType<T> | undefined, value: unknown, onFail: (issues: ValidationIssue[]) => Error): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value);
  if (!result.success) throw onFail(toIssues(result.error));
  return result.data;
}

/**
 * Validates params, query and body against the route's schemas and stores the typed result on
 * `ctx.state.input` (handlers never read the raw request). A malformed path id cannot name
 * anything, so it is 404 rather than 400.
 */
export function validate(route: RouteDef): Middleware<AppState> {
  return async (ctx, next) => {
    const params = check(route.params, ctx.params, () => errors.notFound());
    const query = check(route.query, ctx.query, errors.validation);
    const body = check(route.body, ctx.request.body, errors.validation);
    ctx.state.input = { params, query, body };
    await next();
  };
}
