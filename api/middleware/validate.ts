import type { Middleware } from 'koa';
import type { ZodType } from 'zod';
import type { AppState } from '../context';
import { errors, type ValidationIssue } from '../../domain/errors';
import type { RouteDef } from '../routes/route';

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
 * Validates params, query, body and the declared headers against the route's schemas and stores the typed result on
 * `ctx.state.input` (handlers never read the raw request). A malformed path id cannot name
 * anything, so it is 404 rather than 400.
 */
export function validate(route: RouteDef): Middleware<AppState> {
  // not async: a failed check throws into the chain, which turns it into the rejection the error handler renders
  return (ctx, next) => {
    const params = check(route.params, ctx.params, () => errors.notFound());
    const query = check(route.query, ctx.query, route.credentialInQuery ? () => errors.notFound() : errors.validation);
    const body = check(route.body, ctx.request.body, errors.validation);
    if (route.headers) check(route.headers, declaredHeaders(route.headers, ctx.headers), errors.validation);
    ctx.state.input = { params, query, body };
    return next();
  };
}

/** The request's values of the headers a schema names, under the schema's spelling (`X-Filename`). */
function declaredHeaders(
  schema: ZodType,
  sent: Record<string, string | string[] | undefined>,
): Record<string, unknown> {
  const names = Object.keys((schema as unknown as { shape?: Record<string, unknown> }).shape ?? {});
  return Object.fromEntries(
    names.flatMap((name) => (sent[name.toLowerCase()] === undefined ? [] : [[name, sent[name.toLowerCase()]]])),
  );
}
