import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { ModelRegistry } from '../../domain/models/registry';
import { appendRunEvent } from '../../domain/runs/events';
import { AgentVersion } from '../../db/entities/Agent';
import { Run } from '../../db/entities/Run';
import { RunStep } from '../../db/entities/RunStep';
import { checkRunAllowed } from '../../domain/billing/runChecks';
import type { Config } from '../../platform/config';
import type { AppContext } from '../context';
import { errors } from '../../domain/errors';
import { findPage } from '../../domain/pagination';
import { ensureRunWorkflow, requestHash, startRunWorkflow } from '../../domain/runs/workflowStarter';
import { idParams } from '../schemas/common';
import { serializeRun, serializeStep } from '../../domain/runs/presenters';
import { createRunBody, listRunsQuery, runListOut, runOut, stepOut } from '../schemas/runs';
import type { Temporal } from '../../platform/temporal';
import { findAgent } from './agents';
import { findWorkspaceFiles } from './files';
import { defineRoute, type RouteDef } from './route';
import { z as zod } from 'zod';

type IdParams = z.infer<typeof idParams>;
const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

/** Loads a run of the caller's workspace; another workspace's id is 404 (CONTRACT §1). */
export async function findRun(em: EntityManager, workspaceId: string, id: string): Promise<Run> {
  const run = await em.findOne(Run, { id, workspaceId });
  if (!run) throw errors.notFound('Run');
  return run;
}

interface Deps {
  config: Config;
  temporal: Temporal;
  models: ModelRegistry;
}

/** CONTRACT §5: create, get, list, output and steps of runs. */
export function runRoutes(deps: Deps): RouteDef[] {
  async function replay(ctx: AppContext, key: string, hash: string): Promise<boolean> {
    const prior = await ctx.state.em.findOne(Run, {
      workspaceId: ctx.state.identity!.workspaceId,
      idempotencyKey: key,
    });
    if (!prior) return false;
    if (prior.requestHash !== hash || Date.now() - prior.createdAt.getTime() > IDEMPOTENCY_WINDOW_MS) {
      throw errors.conflict('This Idempotency-Key was already used with a different request');
    }
    // The first request may have died between committing the run and starting its workflow (a killed
    // API process): the replay finishes its job, so a retried create never leaves a run in `queued`.
    if (prior.status === 'queued' && prior.origin === 'temporal') {
      await deps.temporal
        .call(() => ensureRunWorkflow(deps.temporal.client, deps.config.temporal, prior))
        .catch(() => {
          throw errors.unavailable('Temporal');
        });
    }
    ctx.status = 200;
    ctx.body = serializeRun(prior);
    return true;
  }

  return [
    defineRoute<z.infer<typeof createRunBody>>({
      method: 'POST',
      path: '/v1/runs',
      summary: 'Create a run of an agent (optional Idempotency-Key header)',
      tag: 'runs',
      access: { auth: 'any', scope: 'runs:write' },
      body: createRunBody,
      responses: {
        201: { description: 'Created, queued', schema: runOut },
        200: { description: 'Replay of an idempotent create', schema: runOut },
      },
      async handler(ctx, { body }) {
        const identity = ctx.state.identity!;
        const em = ctx.state.em;
        const key = ctx.get('Idempotency-Key') || null;
        if (key && key.length > 255)
          throw errors.validation([{ path: 'Idempotency-Key', message: 'At most 255 characters' }]);
        const hash = requestHash(body);
        if (key && (await replay(ctx, key, hash))) return;

        const agent = await findAgent(em, identity.workspaceId, body.agentId);
        const fileIds = (body.input.fileIds as string[] | undefined) ?? [];
        if (fileIds.length) {
          const found = new Set(await findWorkspaceFiles(em, identity.workspaceId, fileIds));
          const missing = fileIds.map((id, i) => ({ id, i })).filter(({ id }) => !found.has(id));
          if (missing.length) {
            throw errors.validation(
              missing.map(({ i }) => ({ path: `input.fileIds.${i}`, message: 'No such file in this workspace' })),
            );
          }
        }
        const version = await em.findOneOrFail(AgentVersion, { agent, version: agent.currentVersion });
        const model = deps.models.get(version.modelId);
        if (!model)
          throw errors.validation([
            { path: 'agentId', message: `The agent's model ${version.modelId} is not available` },
          ]);
        await checkRunAllowed(em, identity, model, body.input, deps.config);

        const run = new Run(identity.workspaceId, agent.id, agent.currentVersion, body.input, body.metadata);
        run.idempotencyKey = key;
        run.requestHash = hash;
        if (identity.actor === 'api_key') run.apiKeyId = identity.keyId;
        else run.userId = identity.userId;
        try {
          await em.transactional(async (tx) => {
            tx.persist(run);
            await tx.flush();
            await appendRunEvent(tx, run.id, 'run.status', serializeRun(run));
          });
        } catch (err) {
          // Two concurrent creates with one key: the loser answers with the winner's run.
          if (key && err instanceof UniqueConstraintViolationException && (await replay(ctx, key, hash))) return;
          throw err;
        }
        // The row is committed first, so the workflow always finds it (issue: never a run stuck in queued).
        try {
          await deps.temporal.call(() => startRunWorkflow(deps.temporal.client, deps.config.temporal, run));
        } catch {
          // The caller gets 503 and no run: the row ends `failed` with its final event (so a stream or a
          // wait on it ends) and gives its Idempotency-Key back, so the caller's retry creates the run.
          // Its `run.failed` webhook needs Temporal too: the recovery sweep announces it (api/runRecovery.ts).
          const patch = {
            status: 'failed' as const,
            error: { code: 'unavailable', message: 'The run could not be started' },
            completedAt: new Date(),
            idempotencyKey: null,
            announcePending: true,
          };
          Object.assign(run, patch);
          await em.transactional(async (tx) => {
            await tx.nativeUpdate(Run, { id: run.id }, patch);
            await appendRunEvent(tx, run.id, 'run.status', serializeRun(run));
          });
          throw errors.unavailable('Temporal');
        }
        ctx.status = 201;
        ctx.body = serializeRun(run);
      },
    }),
    defineRoute<undefined, z.infer<typeof listRunsQuery>>({
      method: 'GET',
      path: '/v1/runs',
      summary: 'List runs, newest first, by status and agent',
      tag: 'runs',
      access: { auth: 'any', scope: 'runs:read' },
      query: listRunsQuery,
      responses: { 200: { description: 'Runs', schema: runListOut } },
      async handler(ctx, { query }) {
        const where: Record<string, unknown> = { workspaceId: ctx.state.identity!.workspaceId };
        if (query.status) where.status = query.status;
        if (query.agentId) where.agentId = query.agentId;
        const { items, nextCursor } = await findPage(ctx.state.em, Run, where, query);
        ctx.body = { runs: items.map(serializeRun), nextCursor };
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/runs/:id',
      summary: 'Get a run',
      tag: 'runs',
      access: { auth: 'any', scope: 'runs:read' },
      params: idParams,
      responses: { 200: { description: 'The run', schema: runOut } },
      async handler(ctx, { params }) {
        ctx.body = serializeRun(await findRun(ctx.state.em, ctx.state.identity!.workspaceId, params.id));
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/runs/:id/output',
      summary: "A run's output",
      tag: 'runs',
      access: { auth: 'any', scope: 'runs:read' },
      params: idParams,
      responses: {
        200: {
          description: 'Output',
          schema: zod.object({ runId: zod.uuid(), status: runOut.shape.status, output: zod.unknown() }),
        },
      },
      async handler(ctx, { params }) {
        const run = await findRun(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
        ctx.body = { runId: run.id, status: run.status, output: run.output ?? null };
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/runs/:id/steps',
      summary: "A run's steps in order",
      tag: 'runs',
      access: { auth: 'any', scope: 'runs:read' },
      params: idParams,
      responses: { 200: { description: 'Steps', schema: zod.object({ steps: zod.array(stepOut) }) } },
      async handler(ctx, { params }) {
        const run = await findRun(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
        const steps = await ctx.state.em.find(RunStep, { runId: run.id }, { orderBy: { index: 'asc' } });
        ctx.body = { steps: steps.map(serializeStep) };
      },
    }),
  ];
}
