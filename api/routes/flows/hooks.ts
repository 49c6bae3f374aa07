import type { z } from 'zod';
import { PLAN_ENTITLEMENTS } from '../../../db/entities/Workspace';
import type { FlowDeps } from '../../../domain/flows/flows';
import { hookBucket, triggerByWebhook } from '../../../domain/flows/triggers';
import { enforceRateLimit } from '../../middleware/rateLimit';
import type { RateLimitStore } from '../../rateLimitStore';
import { hookAcceptedOut, hookBody, hookParams } from '../../schemas/flows';
import { defineRoute, type RouteDef } from '../route';

/**
 * A flow's webhook trigger (docs/api/flows.md#webhook): no credential, the token in the path is one.
 * Each token is limited like a free-trial key, so a leaked URL cannot run a workspace's flows without bound.
 */
export function flowHookRoutes(deps: FlowDeps & { rateLimits: RateLimitStore }): RouteDef[] {
  return [
    defineRoute<unknown, undefined, z.infer<typeof hookParams>>({
      method: 'POST',
      path: '/hooks/flows/:token',
      summary: "Trigger a flow through its webhook URL; any JSON body is the trigger's data",
      tag: 'flows',
      access: { auth: 'public' },
      params: hookParams,
      body: hookBody,
      responses: {
        202: { description: 'Accepted; the flow run is queued', schema: hookAcceptedOut },
        409: { description: '`conflict`: the flow is paused' },
        429: { description: '`rate_limited`: see `Retry-After`' },
      },
      async handler(ctx, { params, body }) {
        await enforceRateLimit(
          ctx,
          deps.rateLimits,
          hookBucket(params.token),
          PLAN_ENTITLEMENTS.free_trial.apiRateLimitPerMin,
        );
        ctx.body = await triggerByWebhook(deps, ctx.state.em, params.token, body);
        ctx.status = 202;
      },
    }),
  ];
}
