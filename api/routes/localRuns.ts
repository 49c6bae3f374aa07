import { z } from 'zod';
import type { Orm } from '../../db/orm';
import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/logger';
import { getLocalRunBatch, listLocalRunBatches } from '../../domain/runs/localRunBatches';
import { announceLocalRuns, recordLocalRuns } from '../../domain/runs/localRuns';
import { pageQuery } from '../../domain/shared/pagination';
import type { Temporal } from '../../platform/temporal';
import { idParams } from '../schemas/common';
import { localRunBatchOut, localRunsBody, localRunsOut } from '../schemas/runs';
import { defineRoute, type RouteDef } from './route';

/**
 * `POST /v1/local-runs` (scope `runner:run`, docs/api/runs.md): a local runner reports a batch of runs
 * it executed itself; they are stored whole or not at all, and their webhooks follow like any run's. The
 * batches are read back under `runs:read`.
 */
export function localRunRoutes(deps: { config: Config; temporal: Temporal; orm: Orm; logger: Logger }): RouteDef[] {
  const taskQueue = deps.config.temporal.taskQueue;
  return [
    defineRoute<z.infer<typeof localRunsBody>>({
      method: 'POST',
      path: '/v1/local-runs',
      summary: 'Report a batch of runs executed by a local runner',
      // the batch holds at least one run: its first is what a link follows
      createdId: '/runs/0/id',
      tag: 'runs',
      access: { auth: 'any', scope: 'runner:run' },
      body: localRunsBody,
      responses: { 201: { description: 'Recorded', schema: localRunsOut } },
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
        ctx.body = {
          batchId: recorded.batch.id,
          runs: recorded.runs.map((r) => ({ id: r.id, status: r.status })),
        };
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/local-runs',
      summary: "The local runner's batches, newest first",
      tag: 'runs',
      access: { auth: 'any', scope: 'runs:read' },
      query: pageQuery,
      responses: {
        200: {
          description: 'A page of batches',
          schema: z.object({ batches: z.array(localRunBatchOut), nextCursor: z.string().nullable() }),
        },
      },
      async handler(ctx, { query }) {
        ctx.body = await listLocalRunBatches(ctx.state.em, ctx.state.identity!.workspaceId, query);
      },
    }),
    defineRoute<undefined, undefined, z.infer<typeof idParams>>({
      method: 'GET',
      path: '/v1/local-runs/:id',
      summary: 'One local-runner batch with its run ids, in the order they were reported',
      tag: 'runs',
      access: { auth: 'any', scope: 'runs:read' },
      params: idParams,
      responses: {
        200: { description: 'The batch', schema: localRunBatchOut.extend({ runIds: z.array(z.uuid()) }).strict() },
      },
      async handler(ctx, { params }) {
        ctx.body = await getLocalRunBatch(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
      },
    }),
  ];
}
