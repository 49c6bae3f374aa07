import type { z } from 'zod';
import { z as zod } from 'zod';
import type { ModelRegistry } from '../../domain/models/registry';
import { AgentCache } from '../../domain/agents/agentCache';
import { createRun } from '../../domain/runs/create';
import { findRun, findRunView, listRuns, listSteps } from '../../domain/runs/find';
import { serializeRun, serializeStep } from '../../domain/runs/presenters';
import type { Config } from '../../platform/config';
import type { Temporal } from '../../platform/temporal';
import { idParams } from '../schemas/common';
import { createRunBody, listRunsQuery, listStepsQuery, runListOut, runOut, stepOut } from '../schemas/runs';
import { defineRoute, type RouteDef } from './route';

type IdParams = z.infer<typeof idParams>;

interface Deps {
  config: Config;
  temporal: Temporal;
  models: ModelRegistry;
}

/** Create, get and list runs, and a run's output and steps (docs/api/runs.md). */
export function runRoutes(deps: Deps): RouteDef[] {
  // This API process's memory of agents, checked by every create that uses it (domain/agents/agentCache.ts).
  const createDeps = { ...deps, agents: new AgentCache() };
  return [
    defineRoute<z.infer<typeof createRunBody>>({
      method: 'POST',
      path: '/v1/runs',
      summary: 'Create a run of an agent (optional Idempotency-Key header)',
      tag: 'runs',
      access: { auth: 'any', scope: 'runs:write' },
      body: createRunBody,
      // The key lives on the run row, committed with the run (domain/runs/create.ts).
      idempotency: 'own',
      responses: {
        201: { description: 'Created, queued', schema: runOut },
        200: { description: 'Replay of an idempotent create', schema: runOut },
        402: { description: '`billing.insufficient_credits` or `billing.spend_cap_exceeded`' },
        409: { description: '`conflict`: the Idempotency-Key was used with a different request' },
      },
      async handler(ctx, { body }) {
        const key = ctx.get('Idempotency-Key') || null;
        const { run, created, shown } = await createRun(createDeps, ctx.state.em, ctx.state.identity!, body, key);
        ctx.status = created ? 201 : 200;
        if (shown === undefined) ctx.body = serializeRun(run);
        else {
          ctx.type = 'application/json';
          ctx.body = shown;
        }
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
        const { items, nextCursor } = await listRuns(ctx.state.em, ctx.state.identity!.workspaceId, query);
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
        ctx.type = 'application/json';
        ctx.body = await findRunView(ctx.state.db, ctx.state.identity!.workspaceId, params.id);
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
    defineRoute<undefined, z.infer<typeof listStepsQuery>, IdParams>({
      method: 'GET',
      path: '/v1/runs/:id/steps',
      summary: "A run's steps in order, a page at a time",
      tag: 'runs',
      access: { auth: 'any', scope: 'runs:read' },
      params: idParams,
      query: listStepsQuery,
      responses: {
        200: {
          description: 'Steps',
          schema: zod.object({ steps: zod.array(stepOut), nextCursor: zod.string().nullable() }),
        },
      },
      async handler(ctx, { params, query }) {
        const run = await findRun(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
        const { items, nextCursor } = await listSteps(ctx.state.em, run.id, query);
        ctx.body = { steps: items.map(serializeStep), nextCursor };
      },
    }),
  ];
}
