import { z } from 'zod';
import { balance, usageReport } from '../../domain/usage/usage';
import { usageOut, usageQuery } from '../schemas/usage';
import { defineRoute, type RouteDef } from './route';

/** Usage totals over finished runs and the credit balance (docs/api/billing.md). */
export function usageRoutes(): RouteDef[] {
  return [
    defineRoute<undefined, z.infer<typeof usageQuery>>({
      method: 'GET',
      path: '/v1/usage',
      summary: 'Usage totals between two dates, by day and by agent; with priceListId, what that list bills',
      tag: 'usage',
      access: { auth: 'any', scope: 'usage:read' },
      query: usageQuery,
      responses: { 200: { description: 'Usage', schema: usageOut } },
      async handler(ctx, { query }) {
        const { from, to, priceListId } = query;
        ctx.body = await usageReport(ctx.state.em, ctx.state.identity!.workspaceId, from, to, priceListId);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/usage/balance',
      summary: 'Credit balance, plan and entitlements',
      tag: 'usage',
      access: { auth: 'any', scope: 'usage:read' },
      responses: {
        200: {
          description: 'Balance',
          schema: z.object({
            balanceUsd: z.number(),
            plan: z.string(),
            entitlements: z.object({ apiRateLimitPerMin: z.number() }),
          }),
        },
      },
      async handler(ctx) {
        ctx.body = await balance(ctx.state.em, ctx.state.identity!.workspaceId);
      },
    }),
  ];
}
