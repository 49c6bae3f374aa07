import { z, type ZodType } from 'zod';
import type { RouteDef } from './routes/route';

const errorEnvelope = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
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
  return out;
}

/**
 * `GET /v1/openapi.json`, generated from the very schemas that validate requests, so the document
 * cannot drift from what the server accepts.
 */
export function buildOpenApi(routes: RouteDef[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const responses: Record<string, unknown> = {};
    for (const [status, doc] of Object.entries(route.responses)) {
      responses[status] = doc.schema
        ? {
            description: doc.description,
            content: { 'application/json': { schema: jsonSchema(doc.schema, 'output') } },
          }
        : { description: doc.description };
    }
    responses.default = {
      description: 'Error (docs/api/errors.md)',
      content: { 'application/json': { schema: jsonSchema(errorEnvelope, 'output') } },
    };
    const security =
      route.access.auth === 'public'
        ? []
        : route.access.auth === 'session'
          ? [{ session: [] }]
          : [{ apiKey: [] }, { session: [] }];
    (paths[path] ??= {})[route.method.toLowerCase()] = {
      summary: route.summary,
      tags: [route.tag],
      operationId: `${route.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
      security,
      ...('scope' in route.access && route.access.scope ? { 'x-scope': route.access.scope } : {}),
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
                route.rawBody.contentTypes.map((type) => [type, { schema: binarySchema(type) }]),
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
