/**
 * Deprecating a route is one field of its declaration (docs/versioning.md): every answer then carries
 * `Deprecation`, `Sunset` and the successor link, the OpenAPI document marks it, and a declaration with less
 * than 90 days of notice never starts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { z } from 'zod';
import { API_VERSION } from '../../api/app';
import type { AppState } from '../../api/context';
import { errorHandler } from '../../api/middleware/errors';
import { buildOpenApi } from '../../api/openapi';
import { buildRouter, type RouterDeps } from '../../api/router';
import { defineRoute, type RouteDef } from '../../api/routes/route';
import { errors } from '../../domain/errors';
import type { Logger } from '../../platform/logger';

const quiet = { warn: () => undefined, error: () => undefined } as unknown as Logger;

function oldRoute(deprecated: RouteDef['deprecated']): RouteDef {
  return defineRoute<undefined, undefined, { id: string }>({
    method: 'GET',
    path: '/v1/widgets/:id',
    summary: 'An old route',
    tag: 'widgets',
    access: { auth: 'public' },
    params: z.object({ id: z.string() }),
    responses: { 200: { description: 'The widget' } },
    deprecated,
    handler: async (ctx, { params }) => {
      if (params.id === 'missing') throw errors.notFound('Widget');
      ctx.body = { id: params.id };
    },
  });
}

async function serve(routes: RouteDef[]): Promise<{ url: string; close: () => Promise<void> }> {
  const app = new Koa<AppState>();
  app.use(errorHandler(quiet));
  // Public routes ask nothing of these; a deprecated route needs no other dependency.
  app.use(buildRouter(routes, {} as RouterDeps).routes());
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('deprecated routes', () => {
  const deprecated = { since: '2027-03-01', sunset: '2027-06-01', successor: '/v2/widgets' };

  it('answer with Deprecation, Sunset and the successor link, errors included', async () => {
    const api = await serve([oldRoute(deprecated)]);
    try {
      for (const [id, status] of [
        ['w1', 200],
        ['missing', 404],
      ] as const) {
        const res = await fetch(`${api.url}/v1/widgets/${id}`);
        expect(res.status).toBe(status);
        expect(res.headers.get('deprecation')).toBe(`@${Date.parse('2027-03-01T00:00:00Z') / 1000}`);
        expect(res.headers.get('sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
        expect(res.headers.get('link')).toBe('</v2/widgets>; rel="successor-version"');
      }
    } finally {
      await api.close();
    }
  });

  it('a route that is not deprecated says nothing of it', async () => {
    const api = await serve([oldRoute(undefined)]);
    try {
      const res = await fetch(`${api.url}/v1/widgets/w1`);
      expect(res.status).toBe(200);
      expect(res.headers.get('deprecation')).toBeNull();
      expect(res.headers.get('sunset')).toBeNull();
    } finally {
      await api.close();
    }
  });

  it('are marked in the OpenAPI document with their sunset', () => {
    const doc = buildOpenApi([oldRoute(deprecated)], API_VERSION) as {
      paths: Record<string, Record<string, { deprecated?: boolean; 'x-sunset'?: string }>>;
    };
    expect(doc.paths['/v1/widgets/{id}']!.get).toMatchObject({ deprecated: true, 'x-sunset': '2027-06-01' });
  });

  it('never start with less than 90 days of notice, or with a date that is not one', () => {
    expect(() => buildRouter([oldRoute({ since: '2027-03-01', sunset: '2027-05-29' })], {} as RouterDeps)).toThrow(
      /at least 90 days/,
    );
    expect(() => buildRouter([oldRoute({ since: 'soon', sunset: '2027-06-01' })], {} as RouterDeps)).toThrow(
      /YYYY-MM-DD/,
    );
  });
});

describe("the document's version", () => {
  it('has the major of the path prefix, /v1', () => {
    expect(API_VERSION).toMatch(/^1\.\d+\.\d+$/);
  });
});
