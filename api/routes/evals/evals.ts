import type { z } from 'zod';
import { createEval, deleteEval, getEval, listEvals } from '../../../domain/evals/evals';
import { getEvalRun, listEvalRuns, startEvalRun } from '../../../domain/evals/evalRuns';
import type { RelayDeps } from '../../../domain/shared/outbox/relay';
import { pageQuery } from '../../../domain/shared/pagination';
import { idParams } from '../../schemas/common';
import {
  createEvalBody,
  evalListOut,
  evalOut,
  evalRunListOut,
  evalRunOut,
  startEvalRunBody,
} from '../../schemas/evals';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;
type Page = z.infer<typeof pageQuery>;

/** Evals of an agent and their runs (docs/api/evals.md). */
export function evalRoutes(deps: RelayDeps): RouteDef[] {
  const read = { auth: 'any', scope: 'agents:read' } as const;
  const write = { auth: 'any', scope: 'agents:write' } as const;
  return [
    defineRoute<z.infer<typeof createEvalBody>, undefined, IdParams>({
      method: 'POST',
      path: '/v1/agents/:id/evals',
      creates: '/v1/evals',
      summary: 'Create an eval of an agent (at most 100 cases)',
      tag: 'evals',
      access: write,
      params: idParams,
      body: createEvalBody,
      responses: { 201: { description: 'Created', schema: evalOut } },
      async handler(ctx, { params, body }) {
        ctx.body = await createEval(ctx.state.em, ctx.state.identity!, params.id, body);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, Page, IdParams>({
      method: 'GET',
      path: '/v1/agents/:id/evals',
      summary: "List an agent's evals, newest first",
      tag: 'evals',
      access: read,
      params: idParams,
      query: pageQuery,
      responses: { 200: { description: 'Evals', schema: evalListOut } },
      async handler(ctx, { params, query }) {
        ctx.body = await listEvals(ctx.state.em, ctx.state.identity!, params.id, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/evals/:id',
      summary: 'Get an eval',
      tag: 'evals',
      access: read,
      params: idParams,
      responses: { 200: { description: 'The eval', schema: evalOut } },
      async handler(ctx, { params }) {
        ctx.body = await getEval(ctx.state.em, ctx.state.identity!, params.id);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/evals/:id',
      summary: 'Delete an eval and its runs; the case runs stay',
      tag: 'evals',
      access: write,
      params: idParams,
      responses: { 204: { description: 'Deleted' } },
      async handler(ctx, { params }) {
        await deleteEval(ctx.state.em, ctx.state.identity!, params.id);
        ctx.status = 204;
      },
    }),
    defineRoute<z.infer<typeof startEvalRunBody>, undefined, IdParams>({
      method: 'POST',
      path: '/v1/evals/:id/runs',
      creates: '/v1/eval-runs',
      summary: 'Run an eval against a version of its agent; each case is a real, charged run',
      tag: 'evals',
      access: write,
      params: idParams,
      body: startEvalRunBody,
      responses: { 202: { description: 'Accepted; the eval run is queued', schema: evalRunOut } },
      async handler(ctx, { params, body }) {
        ctx.body = await startEvalRun(deps, ctx.state.em, ctx.state.identity!, params.id, body);
        ctx.status = 202;
      },
    }),
    defineRoute<undefined, Page, IdParams>({
      method: 'GET',
      path: '/v1/evals/:id/runs',
      summary: "List an eval's runs, newest first",
      tag: 'evals',
      access: read,
      params: idParams,
      query: pageQuery,
      responses: { 200: { description: 'Eval runs', schema: evalRunListOut } },
      async handler(ctx, { params, query }) {
        ctx.body = await listEvalRuns(ctx.state.em, ctx.state.identity!, params.id, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/eval-runs/:id',
      summary: 'Get an eval run with its scored cases',
      tag: 'evals',
      access: read,
      params: idParams,
      responses: { 200: { description: 'The eval run', schema: evalRunOut } },
      async handler(ctx, { params }) {
        ctx.body = await getEvalRun(ctx.state.em, ctx.state.identity!, params.id);
      },
    }),
  ];
}
