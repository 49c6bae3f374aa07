import { z, type ZodType } from 'zod';
import type { RouteDef } from './routes/route';
import { INELIGIBLE_REASONS } from '../workflows/approvalPolicy';
import { createdStatus, createLinks, operationId, templateOf } from './openapiLinks';

const errorEnvelope = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z
      .object({
        quota: z
          .object({
            name: z.enum(['storageBytes', 'schedules', 'flows', 'savedTables', 'phoneNumbers', 'whatsappAccounts']),
            limit: z.number(),
            used: z.number(),
            requested: z.number(),
          })
          .optional()
          .describe("409 `conflict` of a create over a plan's quota (docs/api/limits.md#quotas)"),
        reason: z
          .enum(INELIGIBLE_REASONS)
          .optional()
          .describe(
            "403 `forbidden` of an approval the gate's policy does not admit (docs/api/runs.md#approval-policies)",
          ),
      })
      .catchall(z.unknown())
      .optional(),
    requestId: z.string(),
  }),
});

function jsonSchema(schema: ZodType, io: 'input' | 'output'): Record<string, unknown> {
  // OpenAPI 3.1 uses JSON Schema 2020-12, which is zod's native target.
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}

function rawSchema(route: RouteDef, contentType: string): Record<string, unknown> {
  const declared = route.rawBody?.schemas?.[contentType];
  if (declared) return jsonSchema(declared, 'input');
  const bytes = { type: 'string', format: 'binary' };
  return contentType.startsWith('multipart/')
    ? { type: 'object', properties: { file: bytes }, required: ['file'] }
    : bytes;
}

function parameters(route: RouteDef): unknown[] {
  const out: unknown[] = [];
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
    ['header', route.headers],
  ] as const) {
    if (!schema) continue;
    const js = jsonSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, s] of Object.entries(js.properties ?? {})) {
      const { description, ...rest } = s as { description?: string };
      const required = where === 'path' || (js.required ?? []).includes(name);
      out.push({ name, in: where, required, ...(description ? { description } : {}), schema: rest });
    }
  }
  if (honoursKey(route)) out.push(IDEMPOTENCY_KEY);
  return out;
}

/**
 * Whether a POST acts on `Idempotency-Key`: every one with a workspace (api/middleware/idempotency.ts), and
 * a public one that keeps its key itself (an app's run); sign-in and the provider hooks ignore it.
 */
function honoursKey(route: RouteDef): boolean {
  return route.method === 'POST' && (route.access.auth !== 'public' || route.idempotency === 'own');
}

function requiredQuery(route: RouteDef): string[] {
  if (!route.query) return [];
  return (jsonSchema(route.query, 'input') as { required?: string[] }).required ?? [];
}

/** Every POST takes one (docs/api/limits.md#idempotency). */
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the request safe to retry: the same key and request within 24 h replay the first answer without acting again; a different request under the key is 409 conflict.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

// The errors every route of a kind can answer (docs/api/errors.md); a route adds its own (402, 409, ...)
// in its `responses`, and all of them share the error envelope.
function standardErrors(route: RouteDef): Record<number, string> {
  const out: Record<number, string> = {};
  // A POST's Idempotency-Key header is input too, and its reuse for another request is a conflict.
  const keyed = honoursKey(route);
  const takesInput = Boolean(route.body || route.rawBody || route.query || route.method === 'POST');
  if (takesInput) out[400] = '`validation_error` or `invalid_json`: the request fails its schema';
  if (route.access.auth !== 'public') {
    out[401] = '`unauthorized`: no credential, or an unknown, revoked or expired one';
    out[403] = '`forbidden`: the key lacks the scope, or the session role is too low';
  }
  const input = [route.params, route.query, route.body].filter(Boolean) as ZodType[];
  const namesAnId = input.some((schema) => JSON.stringify(jsonSchema(schema, 'input')).includes('"format":"uuid"'));
  if (route.params || (namesAnId && route.access.auth !== 'public'))
    out[404] = '`not_found`: no such id in this workspace';
  if (route.body || route.rawBody) {
    out[413] = '`payload_too_large`: the body is over its limit';
    out[415] = '`unsupported_media_type`: the body has another media type';
  }
  if (keyed)
    out[409] = '`conflict`: the Idempotency-Key was used for another request, or its first request has not answered';
  if (route.access.auth !== 'public' || route.ipRateLimit) out[429] = '`rate_limited`: see `Retry-After`';
  return out;
}

const digits = { type: 'string', pattern: '^[0-9]+$' };
const HEADERS = {
  requestId: {
    description: 'The id of this request, also in an error body and the log (docs/api/errors.md)',
    required: true,
    schema: { type: 'string', minLength: 1 },
  },
  limit: { description: 'Requests allowed per window (docs/api/limits.md)', schema: digits },
  remaining: { description: 'Requests left in this window', schema: digits },
  reset: { description: 'Seconds until the window resets', schema: digits },
  retryAfter: { description: 'Seconds to wait before trying again', schema: digits },
};

/**
 * The headers of a response: every one carries `X-Request-Id`; a counted request (a credential, or a
 * per-client limit) `RateLimit-*`; a 429, a 503 and any other error may say `Retry-After`.
 */
function responseHeaders(route: RouteDef, status: string): Record<string, unknown> {
  const out: Record<string, unknown> = { 'X-Request-Id': HEADERS.requestId };
  if (route.access.auth !== 'public' || route.ipRateLimit || status === '429') {
    Object.assign(out, {
      'RateLimit-Limit': HEADERS.limit,
      'RateLimit-Remaining': HEADERS.remaining,
      'RateLimit-Reset': HEADERS.reset,
    });
  }
  if (status === '429' || status === '503' || status === 'default') out['Retry-After'] = HEADERS.retryAfter;
  return out;
}

/**
 * `GET /v1/openapi.json`, generated from the very schemas that validate requests, so the document
 * cannot drift from what the server accepts.
 */
export function buildOpenApi(routes: RouteDef[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorContent = { 'application/json': { schema: jsonSchema(errorEnvelope, 'output') } };
  for (const route of routes) {
    const path = templateOf(route.path);
    const responses: Record<string, unknown> = {};
    for (const [status, description] of Object.entries(standardErrors(route)))
      responses[status] = { description, content: errorContent };
    for (const [status, doc] of Object.entries(route.responses)) {
      // JSON (its schema, or the error envelope of an error) and any other media type the route declares
      const content: Record<string, unknown> = doc.schema
        ? { 'application/json': { schema: jsonSchema(doc.schema, 'output') } }
        : Number(status) >= 400
          ? { ...errorContent }
          : {};
      for (const type of [doc.contentType ?? []].flat()) content[type] ??= {};
      responses[status] = Object.keys(content).length
        ? { description: doc.description, content }
        : { description: doc.description };
    }
    const status = createdStatus(route);
    const createdSchema = status ? route.responses[Number(status)].schema : undefined;
    const created = createdSchema
      ? Object.keys((jsonSchema(createdSchema, 'output') as { properties?: object }).properties ?? {})
      : [];
    const links = createLinks(routes, route, created, requiredQuery);
    if (links) (responses[status!] as Record<string, unknown>).links = links;
    responses.default = { description: 'Error (docs/api/errors.md)', content: errorContent };
    for (const [status, response] of Object.entries(responses))
      (response as Record<string, unknown>).headers = responseHeaders(route, status);
    const security =
      route.access.auth === 'public'
        ? []
        : route.access.auth === 'session'
          ? [{ session: [] }]
          : [{ apiKey: [] }, { session: [] }];
    (paths[path] ??= {})[route.method.toLowerCase()] = {
      summary: route.summary,
      tags: [route.tag],
      operationId: operationId(route.method, path),
      ...(route.deprecated ? { deprecated: true, 'x-sunset': route.deprecated.sunset } : {}),
      security,
      ...('scope' in route.access && route.access.scope ? { 'x-scope': route.access.scope } : {}),
      ...('sessionRoles' in route.access && route.access.sessionRoles
        ? { 'x-session-roles': route.access.sessionRoles }
        : {}),
      parameters: parameters(route),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
            },
          }
        : {}),
      ...(route.rawBody
        ? {
            requestBody: {
              required: true,
              description: route.rawBody.description,
              content: Object.fromEntries(
                route.rawBody.contentTypes.map((type) => [
                  type,
                  // a part without a Content-Type is a form field, not a file (api/uploads.ts)
                  type.startsWith('multipart/') && !route.rawBody?.schemas?.[type]
                    ? {
                        schema: rawSchema(route, type),
                        encoding: { file: { contentType: 'application/octet-stream' } },
                      }
                    : { schema: rawSchema(route, type) },
                ]),
              ),
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'svc', version, description: 'Workspace-scoped API for running automation agents.' },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'API key `svc_live_…`' },
        session: { type: 'apiKey', in: 'cookie', name: 'svc_session' },
      },
    },
    paths,
  };
}
