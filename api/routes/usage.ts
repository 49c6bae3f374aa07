import { z } from 'zod';
import { PLAN_ENTITLEMENTS, Workspace } from '../../db/entities/Workspace';
import { errors } from '../../domain/errors';
import { microsToUsd } from '../../domain/billing/money';
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

interface Row {
  key: string;
  runs: string;
  input_tokens: string;
  output_tokens: string;
  cost_micros: string;
}
const figures = (r: Row) => ({
  runs: Number(r.runs),
  inputTokens: Number(r.input_tokens),
  outputTokens: Number(r.output_tokens),
  costUsd: microsToUsd(Number(r.cost_micros)),
});

/** CONTRACT §8: usage totals over finished runs (UTC days, both ends included) and the balance. */
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
        if (query.from > query.to) throw errors.validation([{ path: 'from', message: 'from must not be after to' }]);
        const conn = ctx.state.em.getConnection();
        const select = (key: string, group: string) =>
          conn.execute<Row[]>(
            `select ${key} as key, count(*) as runs, coalesce(sum(input_tokens), 0) as input_tokens,
                    coalesce(sum(output_tokens), 0) as output_tokens, coalesce(sum(cost_micros), 0) as cost_micros
             from runs where workspace_id = ? and completed_at >= ?::date and completed_at < ?::date + 1 ${group}`,
            [ctx.state.identity!.workspaceId, query.from, query.to],
          );
        const [all, byDay, byAgent] = await Promise.all([
          select(`'all'`, ''),
          select(`to_char(completed_at at time zone 'utc', 'YYYY-MM-DD')`, 'group by 1 order by 1'),
          select('agent_id::text', 'group by 1 order by 1'),
        ]);
        ctx.body = {
          from: query.from,
          to: query.to,
          ...figures(all[0]),
          byDay: byDay.map((r) => ({ date: r.key, ...figures(r) })),
          byAgent: byAgent.map((r) => ({ agentId: r.key, ...figures(r) })),
        };
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
        const ws = await ctx.state.em.findOneOrFail(Workspace, ctx.state.identity!.workspaceId);
        ctx.body = {
          balanceUsd: microsToUsd(ws.creditBalanceMicros),
          plan: ws.plan,
          entitlements: PLAN_ENTITLEMENTS[ws.plan],
        };
      },
    }),
  ];
}
