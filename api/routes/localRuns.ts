import { z } from 'zod';
import { appendRunEvent } from '../../domain/runs/events';
import { Run } from '../../db/entities/Run';
import type { Orm } from '../../db/orm';
import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/logger';
import { announceRuns } from '../../domain/runs/recovery';
import { serializeRun } from '../../domain/runs/presenters';
import type { Temporal } from '../../platform/temporal';
import { findAgent } from './agents';
import { defineRoute, type RouteDef } from './route';

const localRun = z.object({
  input: z.record(z.string(), z.unknown()).default({}),
  status: z.enum(['succeeded', 'failed']),
  output: z.unknown().optional(),
  error: z
    .object({ code: z.string().min(1).max(100), message: z.string().max(10_000) })
    .nullable()
    .optional(),
  startedAt: z.iso.datetime(),
  completedAt: z.iso.datetime(),
  usage: z.object({ inputTokens: z.number().int().min(0), outputTokens: z.number().int().min(0) }).optional(),
});

export const localRunsBody = z.object({
  agentId: z.uuid(),
  runs: z
    .array(localRun)
    .min(1)
    .max(100)
    .refine((runs) => runs.every((r) => r.startedAt <= r.completedAt), 'startedAt must not be after completedAt'),
});

/**
 * CONTRACT §5 `POST /v1/local-runs` (scope `runner:run`, spec §4.3): a local runner reports a batch of
 * runs it executed itself. They are recorded as finished runs of the agent's current version, with
 * their status events, in one transaction: a batch is stored whole or not at all. Their webhooks
 * follow, like any run's.
 */
export function localRunRoutes(deps: { config: Config; temporal: Temporal; orm: Orm; logger: Logger }): RouteDef[] {
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
        const identity = ctx.state.identity!;
        const agent = await findAgent(ctx.state.em, identity.workspaceId, body.agentId);
        const rows = body.runs.map((r) => {
          const run = new Run(identity.workspaceId, agent.id, agent.currentVersion, r.input, {});
          run.origin = 'local';
          run.status = r.status;
          run.output = r.status === 'succeeded' ? (r.output ?? null) : null;
          run.error =
            r.status === 'failed' ? (r.error ?? { code: 'agent.local_error', message: 'The local run failed' }) : null;
          run.startedAt = new Date(r.startedAt);
          run.completedAt = new Date(r.completedAt);
          run.inputTokens = r.usage?.inputTokens ?? 0;
          run.outputTokens = r.usage?.outputTokens ?? 0;
          if (identity.actor === 'api_key') run.apiKeyId = identity.keyId;
          else run.userId = identity.userId;
          run.announcePending = true;
          return run;
        });
        await ctx.state.em.transactional(async (tx) => {
          tx.persist(rows);
          await tx.flush();
          for (const run of rows) await appendRunEvent(tx, run.id, 'run.status', serializeRun(run));
        });
        // CONTRACT §5: recorded runs send their webhooks like any other. The batch is stored either way:
        // when Temporal cannot take the announcements now, the recovery sweep makes them later.
        await announceRuns(deps, rows).catch((err: Error) =>
          deps.logger.warn({ reqId: ctx.state.requestId, err: err.message }, 'local runs left to the recovery sweep'),
        );
        ctx.status = 201;
        ctx.body = { runs: rows.map((r) => ({ id: r.id, status: r.status })) };
      },
    }),
  ];
}
