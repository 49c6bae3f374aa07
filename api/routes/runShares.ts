import type { z } from 'zod';
import { runDashboard, sharedRun, shareRun, unshareRun } from '../../domain/runs/shares';
import type { Config } from '../../platform/config';
import { idParams } from '../schemas/common';
import { runDashboardOut, runShareOut, sharedRunOut, sharedRunParams } from '../schemas/runShares';
import { defineRoute, type RouteDef } from './route';

type IdParams = z.infer<typeof idParams>;

/**
 * Run dashboards (docs/api/runs.md#sharing-a-run): share and unshare under `/v1`, and the public view under
 * `/shared`, outside the credentialed API (no credential; limited per client IP).
 */
export function runShareRoutes(deps: { config: Config }): RouteDef[] {
  return [
    defineRoute<undefined, undefined, IdParams>({
      method: 'POST',
      path: '/v1/runs/:id/share',
      summary: "Share a run's dashboard: a link with a new token (sharing again replaces the token)",
      tag: 'runs',
      access: { auth: 'any', scope: 'runs:write' },
      params: idParams,
      // The token is shown once: a repeated Idempotency-Key cannot show it again (409).
      idempotency: 'secret',
      responses: { 201: { description: 'Shared', schema: runShareOut } },
      async handler(ctx, { params }) {
        const workspaceId = ctx.state.identity!.workspaceId;
        ctx.body = await shareRun(ctx.state.em, workspaceId, params.id, deps.config.publicUrl);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/runs/:id/share',
      summary: "Stop sharing a run's dashboard; its link answers 404 at once",
      tag: 'runs',
      access: { auth: 'any', scope: 'runs:write' },
      params: idParams,
      responses: { 204: { description: 'No longer shared' } },
      async handler(ctx, { params }) {
        await unshareRun(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
        ctx.status = 204;
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/runs/:id/dashboard',
      summary: "A run's dashboard: the view its shared link shows, and whether it is shared",
      tag: 'runs',
      access: { auth: 'any', scope: 'runs:read' },
      params: idParams,
      responses: { 200: { description: 'The dashboard', schema: runDashboardOut } },
      async handler(ctx, { params }) {
        ctx.body = await runDashboard(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
      },
    }),
    defineRoute<undefined, undefined, z.infer<typeof sharedRunParams>>({
      method: 'GET',
      path: '/shared/runs/:token',
      summary: 'A shared run dashboard, without a credential: id, status, output, steps, completion time',
      tag: 'shared',
      access: { auth: 'public' },
      ipRateLimit: 'shared',
      params: sharedRunParams,
      responses: {
        200: { description: 'The shared run', schema: sharedRunOut },
        404: { description: '`not_found`: unknown or revoked token' },
      },
      async handler(ctx, { params }) {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = await sharedRun(ctx.state.em, params.token);
      },
    }),
  ];
}
