import { z } from 'zod';
import type { Orm } from '../../db/orm';
import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/logger';
import { announceLocalRuns, recordLocalRuns } from '../../domain/runs/localRuns';
import type { Temporal } from '../../platform/temporal';
import { localRunsBody } from '../schemas/runs';
import { defineRoute, type RouteDef } from './route';

/**
 * `POST /v1/local-runs` (scope `runner:run`, docs/api/runs.md): a local runner reports a batch of runs
 * it executed itself; they are stored whole or not at all, and their webhooks follow like any run's.
 */
export function localRunRoutes(deps: { config: Config; temporal: Temporal; orm: Orm; logger: Logger }): RouteDef[] {
  const taskQueue = deps.config.temporal.taskQueue;
  return [
    defineRoute<z.infer<typeof localRunsBody>>({
      method: 'POST',
      path: '/v1/local-runs',
      summary: 'Report a batch of runs executed by a local runner',
      tag: 'runs',
      access: { auth: 'any', scope: 'runner:run' },
      body: localRunsBody,
      responses: {
        201: {
          description: 'Recorded',
          schema: z.object({ runs: z.array(z.object({ id: z.uuid(), status: z.enum(['succeeded', 'failed']) })) }),
        },
      },
      async handler(ctx, { body }) {
        const em = ctx.state.em;
        const recorded = await recordLocalRuns(
          em,
          ctx.state.identity!,
          body.agentId,
          body.runs,
          taskQueue,
          deps.config,
        );
        await announceLocalRuns(deps, em, recorded.announcements).catch((err: Error) =>
          deps.logger.warn({ reqId: ctx.state.requestId, err: err.message }, 'local runs left to the outbox sweep'),
        );
        ctx.status = 201;
        ctx.body = { runs: recorded.runs.map((r) => ({ id: r.id, status: r.status })) };
      },
    }),
  ];
}
