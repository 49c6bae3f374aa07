import type { EntityManager } from '@mikro-orm/postgresql';
import { PLAN_ENTITLEMENTS, Workspace } from '../../db/entities/Workspace';
import { microsToUsd } from '../shared/money';
import { errors } from '../errors';
import { billedMicros } from '../pricing/quote';

export interface UsageFigures {
  runs: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface UsageReport extends UsageFigures {
  from: string;
  to: string;
  byDay: Array<{ date: string } & UsageFigures>;
  byAgent: Array<{ agentId: string } & UsageFigures>;
  /** With a price list: what it bills for these runs (docs/api/pricing.md#usage). */
  billedUsd?: number;
}

interface Row {
  key: string;
  runs: string;
  input_tokens: string;
  output_tokens: string;
  cost_micros: string;
}

const figures = (r: Row): UsageFigures => ({
  runs: Number(r.runs),
  inputTokens: Number(r.input_tokens),
  outputTokens: Number(r.output_tokens),
  costUsd: microsToUsd(Number(r.cost_micros)),
});

/**
 * Usage totals over the runs that finished between two UTC days (`YYYY-MM-DD`, both ends included), in
 * all, by day and by agent (docs/api/billing.md); with `priceListId`, also what that list bills for them
 * (`billedUsd`). `from` after `to`, or a price list that is not the workspace's, is a 400.
 */
export async function usageReport(
  em: EntityManager,
  workspaceId: string,
  from: string,
  to: string,
  priceListId?: string,
): Promise<UsageReport> {
  if (from > to) throw errors.validation([{ path: 'from', message: 'from must not be after to' }]);
  const billed = priceListId === undefined ? undefined : await billedMicros(em, workspaceId, priceListId, from, to);
  const conn = em.getConnection();
  const select = (key: string, group: string) =>
    conn.execute<Row[]>(
      `select ${key} as key, count(*) as runs, coalesce(sum(input_tokens), 0) as input_tokens,
              coalesce(sum(output_tokens), 0) as output_tokens, coalesce(sum(cost_micros), 0) as cost_micros
       from runs where workspace_id = ? and completed_at >= ?::date and completed_at < ?::date + 1 ${group}`,
      [workspaceId, from, to],
    );
  const [all, byDay, byAgent] = await Promise.all([
    select(`'all'`, ''),
    select(`to_char(completed_at at time zone 'utc', 'YYYY-MM-DD')`, 'group by 1 order by 1'),
    select('agent_id::text', 'group by 1 order by 1'),
  ]);
  return {
    from,
    to,
    ...figures(all[0]),
    byDay: byDay.map((r) => ({ date: r.key, ...figures(r) })),
    byAgent: byAgent.map((r) => ({ agentId: r.key, ...figures(r) })),
    ...(billed === undefined ? {} : { billedUsd: microsToUsd(billed) }),
  };
}

/** The workspace's credit balance, plan and the plan's entitlements. */
export async function balance(em: EntityManager, workspaceId: string) {
  const ws = await em.findOneOrFail(Workspace, workspaceId);
  return { balanceUsd: microsToUsd(ws.creditBalanceMicros), plan: ws.plan, entitlements: PLAN_ENTITLEMENTS[ws.plan] };
}
