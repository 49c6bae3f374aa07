import { z } from 'zod';
import { balance, usageReport } from '../../domain/usage/usage';
import { defineRoute, type RouteDef } from './route';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected YYYY-MM-DD');
export const usageQuery = z.object({ from: day, to: day });

const totals = {
  runs: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  costUsd: z.number(),
};
const usageOut = z.object({
  from: day,
  to: day,
  ...totals,
  byDay: z.array(z.object({ date: day, ...totals })),
  byAgent: z.array(z.object({ agentId: z.uuid(), ...totals })),
});

/** Usage totals over finished runs and the credit balance (docs/api/billing.md). */
export function usageRoutes(): RouteDef[] {
  return [
    defineRoute<undefined, z.infer<typeof usageQuery>>({
      method: 'GET',
      path: '/v1/usage',
      summary: 'Usage totals between two dates, by day and by agent',
      tag: 'usage',
      access: { auth: 'any', scope: 'usage:read' },
      query: usageQuery,
      responses: { 200: { description: 'Usage', schema: usageOut } },
      async handler(ctx, { query }) {
        ctx.body = await usageReport(ctx.state.em, ctx.state.identity!.workspaceId, query.from, query.to);
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
