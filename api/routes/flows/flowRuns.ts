import type { z } from 'zod';
import type { FlowDeps } from '../../../domain/flows/flows';
import {
  answerFlowApproval,
  cancelFlowRun,
  getFlowRun,
  listFlowRuns,
  listWorkspaceFlowRuns,
} from '../../../domain/flows/runs';
import { pageQuery } from '../../../domain/shared/pagination';
import { idParams } from '../../schemas/common';
import { approvalBody, flowRunListOut, flowRunOut, listFlowRunsQuery } from '../../schemas/flows';
import { auditContext } from '../../auditContext';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;

const invalidState = { description: '`run.invalid_state`: the flow run is not in a status that allows this' };

/** Flow runs: list, read, answer an approval, cancel (docs/api/flows.md#flow-runs). */
export function flowRunRoutes(deps: FlowDeps): RouteDef[] {
  return [
    defineRoute<undefined, z.infer<typeof listFlowRunsQuery>>({
      method: 'GET',
      path: '/v1/flow-runs',
      summary: "List the workspace's flow runs across its flows, newest first, optionally of one status",
      tag: 'flows',
      access: { auth: 'any', scope: 'flows:read' },
      query: listFlowRunsQuery,
      responses: { 200: { description: 'Flow runs', schema: flowRunListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listWorkspaceFlowRuns(ctx.state.em, ctx.state.identity!, query);
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>, IdParams>({
      method: 'GET',
      path: '/v1/flows/:id/runs',
      summary: "List a flow's runs, newest first",
      tag: 'flows',
      access: { auth: 'any', scope: 'flows:read' },
      params: idParams,
      query: pageQuery,
      responses: { 200: { description: 'Flow runs', schema: flowRunListOut } },
      async handler(ctx, { params, query }) {
        ctx.body = await listFlowRuns(ctx.state.em, ctx.state.identity!, params.id, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/flow-runs/:id',
      summary: 'Get a flow run with its steps',
      tag: 'flows',
      access: { auth: 'any', scope: 'flows:read' },
      params: idParams,
      responses: { 200: { description: 'The flow run', schema: flowRunOut } },
      async handler(ctx, { params }) {
        ctx.body = await getFlowRun(ctx.state.em, ctx.state.identity!, params.id);
      },
    }),
    defineRoute<z.infer<typeof approvalBody>, undefined, IdParams>({
      method: 'POST',
      path: '/v1/flow-runs/:id/approval',
      summary: 'Answer the approval step a flow run waits for; a rejection fails the flow run',
      tag: 'flows',
      access: { auth: 'any', scope: 'flows:manage' },
      params: idParams,
      body: approvalBody,
      responses: {
        202: { description: 'Accepted; the flow run goes on', schema: flowRunOut },
        403: { description: "`forbidden`: the step's approval policy does not admit this answer (`details.reason`)" },
        409: invalidState,
      },
      async handler(ctx, { params, body }) {
        const { em, identity } = ctx.state;
        ctx.body = await answerFlowApproval(deps, em, identity!, params.id, body, auditContext(ctx));
        ctx.status = 202;
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'POST',
      path: '/v1/flow-runs/:id/cancel',
      summary: 'Cancel a flow run that has not finished, and its agent run',
      tag: 'flows',
      access: { auth: 'any', scope: 'flows:manage' },
      params: idParams,
      responses: {
        202: { description: 'Accepted; the flow run is being cancelled', schema: flowRunOut },
        409: invalidState,
      },
      async handler(ctx, { params }) {
        ctx.body = await cancelFlowRun(deps, ctx.state.em, ctx.state.identity!, params.id);
        ctx.status = 202;
      },
    }),
  ];
}
