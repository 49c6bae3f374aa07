import { z } from 'zod';
import type { Temporal } from '../../platform/temporal';
import { ApiError } from '../../domain/errors';
import { defineRoute, type RouteDef } from './route';

const readyOut = z.object({
  status: z.enum(['ready']),
  checks: z.object({ database: z.literal('ok'), temporal: z.literal('ok') }),
});

async function check(probe: () => Promise<unknown>): Promise<string> {
  try {
    await probe();
    return 'ok';
  } catch (err) {
    return err instanceof Error ? err.message.split('\n')[0].slice(0, 200) : 'failed';
  }
}

/** Operations: /healthz says the process is up, /readyz that PostgreSQL and Temporal answer. */
export function healthRoutes(deps: { temporal: Temporal; openapi: () => Record<string, unknown> }): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/healthz',
      summary: 'Liveness: the process is up',
      tag: 'operations',
      access: { auth: 'public' },
      responses: { 200: { description: 'Up', schema: z.object({ status: z.literal('ok') }) } },
      async handler(ctx) {
        ctx.body = { status: 'ok' };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/readyz',
      summary: 'Readiness: the database and Temporal are reachable',
      tag: 'operations',
      access: { auth: 'public' },
      responses: { 200: { description: 'Ready', schema: readyOut }, 503: { description: 'A dependency is down' } },
      async handler(ctx) {
        const [database, temporal] = await Promise.all([
          check(() => ctx.state.em.getConnection().execute('select 1')),
          check(() => deps.temporal.ping()),
        ]);
        if (database !== 'ok' || temporal !== 'ok') {
          throw new ApiError('unavailable', 'Not ready', { checks: { database, temporal } }, { 'Retry-After': '5' });
        }
        ctx.body = { status: 'ready', checks: { database, temporal } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/openapi.json',
      summary: 'This document',
      tag: 'operations',
      access: { auth: 'public' },
      responses: { 200: { description: 'OpenAPI 3.1 document' } },
      async handler(ctx) {
        ctx.body = deps.openapi();
      },
    }),
  ];
}
