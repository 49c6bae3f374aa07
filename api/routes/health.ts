import { z } from 'zod';
import type { Logger } from '../../platform/logger';
import type { Temporal } from '../../platform/temporal';
import { ApiError } from '../../domain/errors';
import { defineRoute, type RouteDef } from './route';

const readyOut = z.object({
  status: z.enum(['ready']),
  checks: z.object({ database: z.literal('ok'), temporal: z.literal('ok') }),
});

type Check = 'ok' | 'failed';

/**
 * Operations: /healthz says the process is up, /readyz that PostgreSQL and Temporal answer. /readyz is
 * public, so it names a failing dependency and nothing more: the error itself (addresses, user names,
 * driver messages) goes to the log.
 */
export function healthRoutes(deps: {
  temporal: Temporal;
  logger: Logger;
  openapi: () => Record<string, unknown>;
}): RouteDef[] {
  async function check(dependency: string, probe: () => Promise<unknown>): Promise<Check> {
    try {
      await probe();
      return 'ok';
    } catch (err) {
      deps.logger.warn({ err, dependency }, 'readiness check failed');
      return 'failed';
    }
  }

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
      responses: {
        200: { description: 'Ready', schema: readyOut },
        503: { description: 'A dependency is down: `details.checks` marks it `failed`' },
      },
      async handler(ctx) {
        const [database, temporal] = await Promise.all([
          check('database', () => ctx.state.em.getConnection().execute('select 1')),
          check('temporal', () => deps.temporal.ping()),
        ]);
        const checks = { database, temporal };
        const failing = Object.entries(checks)
          .filter(([, result]) => result !== 'ok')
          .map(([name]) => name);
        if (failing.length) {
          throw new ApiError('unavailable', `Not ready: ${failing.join(', ')}`, { checks }, { 'Retry-After': '5' });
        }
        ctx.body = { status: 'ready', checks };
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
