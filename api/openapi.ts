import { z, type ZodType } from 'zod';
import type { RouteDef } from './routes/route';
import { INELIGIBLE_REASONS } from '../workflows/approvalPolicy';

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

function binarySchema(contentType: string): Record<string, unknown> {
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
  ] as const) {
    if (!schema) continue;
    const js = jsonSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, s] of Object.entries(js.properties ?? {})) {
      out.push({ name, in: where, required: where === 'path' || (js.required ?? []).includes(name), schema: s });
    }
  }
  if (route.method === 'POST') out.push(IDEMPOTENCY_KEY);
  return out;
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
  const keyed = route.method === 'POST' && route.access.auth !== 'public';
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

const operationId = (method: string, path: string) =>
  `${method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`;

/**
 * OpenAPI links from each create (`POST /v1/<things>` answering 201 with an `id`) to the operations on
 * `/v1/<things>/{id}` and below that take that id alone, so a client (and the fuzzer's stateful phase,
 * docs/testing.md) can follow a created resource to its reads, actions and delete; plus the links of
 * LINKED_BODIES, whose request body carries the id (a new agent's id to `POST /v1/runs`).
 */
function createLinks(routes: RouteDef[], path: string, route: RouteDef): Record<string, unknown> | undefined {
  const created = route.responses[201]?.schema;
  if (route.method !== 'POST' || !created || path.includes('{')) return undefined;
  const props = (jsonSchema(created, 'output') as { properties?: Record<string, unknown> }).properties ?? {};
  if (!('id' in props)) return undefined;
  const links: Record<string, unknown> = {};
  for (const other of routes) {
    const otherPath = other.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    if (!otherPath.startsWith(`${path}/{id}`) || (otherPath.match(/\{/g) ?? []).length !== 1) continue;
    const id = operationId(other.method, otherPath);
    links[id] = { operationId: id, parameters: { id: '$response.body#/id' } };
  }
  for (const [target, field] of LINKED_BODIES[path] ?? []) {
    const [method, targetPath] = target.split(' ') as [string, string];
    const id = operationId(method, targetPath);
    links[id] = { operationId: id, requestBody: { [field]: '$response.body#/id' } };
  }
  return Object.keys(links).length ? links : undefined;
}

/** Creates whose id another create takes in its body: `[operation, body field]` per collection. */
const LINKED_BODIES: Record<string, Array<[string, string]>> = {
  '/v1/agents': [['POST /v1/runs', 'agentId']],
};

/**
 * `GET /v1/openapi.json`, generated from the very schemas that validate requests, so the document
 * cannot drift from what the server accepts.
 */
export function buildOpenApi(routes: RouteDef[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorContent = { 'application/json': { schema: jsonSchema(errorEnvelope, 'output') } };
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const responses: Record<string, unknown> = {};
    for (const [status, description] of Object.entries(standardErrors(route)))
      responses[status] = { description, content: errorContent };
    for (const [status, doc] of Object.entries(route.responses)) {
      responses[status] = doc.schema
        ? {
            description: doc.description,
            content: {
              'application/json': { schema: jsonSchema(doc.schema, 'output') },
              // a route that can also answer in another media type (the audit log's CSV, a report's HTML)
              ...Object.fromEntries(
                [doc.contentType ?? []]
                  .flat()
                  .filter((type) => type !== 'application/json')
                  .map((type) => [type, {}]),
              ),
            },
          }
        : Number(status) >= 400
          ? { description: doc.description, content: errorContent }
          : doc.contentType
            ? {
                description: doc.description,
                content: Object.fromEntries([doc.contentType].flat().map((type) => [type, {}])),
              }
            : { description: doc.description };
    }
    const links = createLinks(routes, path, route);
    if (links) (responses[201] as Record<string, unknown>).links = links;
    responses.default = { description: 'Error (docs/api/errors.md)', content: errorContent };
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
                  type.startsWith('multipart/')
                    ? { schema: binarySchema(type), encoding: { file: { contentType: 'application/octet-stream' } } }
                    : { schema: binarySchema(type) },
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
