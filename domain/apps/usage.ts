import type { EntityManager } from '@mikro-orm/postgresql';
import { PricingRule } from '../../db/entities/PriceList';
import { microsToUsd } from '../shared/money';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { pickRule } from '../pricing/match';
import { ruleMicros, toMicros } from '../pricing/price';
import { findApp } from './find';

export interface AppUsage {
  appId: string;
  from: string;
  to: string;
  runs: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  priceListId: string | null;
  billedUsd: number | null;
}

interface GroupRow {
  agent_id: string;
  model_id: string;
  runs: string;
  input_tokens: string;
  output_tokens: string;
  cost_micros: string;
}

/**
 * The runs started through an app's public page that finished between two UTC days (both included): their count, tokens,
 * what the service charged the workspace (`costUsd`) and, when the app has a price list, what that list
 * bills for them (`billedUsd`, each group of one agent and model priced by its matching rule, the app's id
 * part of the match; docs/api/pricing.md). Throws `not_found`, or `validation_error` when `from` > `to`.
 */
export async function appUsage(
  em: EntityManager,
  identity: Identity,
  id: string,
  range: { from: string; to: string },
): Promise<AppUsage> {
  const app = await findApp(em, identity.workspaceId, id);
  if (range.from > range.to) throw errors.validation([{ path: 'from', message: 'from must not be after to' }]);
  const groups = await em.getConnection().execute<GroupRow[]>(
    `select r.agent_id::text as agent_id, coalesce(v.model_id, '') as model_id, count(*) as runs,
            coalesce(sum(r.input_tokens), 0) as input_tokens, coalesce(sum(r.output_tokens), 0) as output_tokens,
            coalesce(sum(r.cost_micros), 0) as cost_micros
       from app_run_tokens t join runs r on r.id = t.run_id
       left join agent_versions v on v.agent_id = r.agent_id and v.version = r.agent_version
      where t.app_id = ? and r.workspace_id = ?
        and r.completed_at >= ?::date and r.completed_at < ?::date + 1
      group by 1, 2`,
    [app.id, identity.workspaceId, range.from, range.to],
  );
  const rules = app.priceList ? await em.find(PricingRule, { priceList: app.priceList.id }) : null;
  const totals = { runs: 0, inputTokens: 0, outputTokens: 0, costMicros: 0, billedMicros: 0 };
  for (const g of groups) {
    const q = { runs: Number(g.runs), inputTokens: Number(g.input_tokens), outputTokens: Number(g.output_tokens) };
    totals.runs += q.runs;
    totals.inputTokens += q.inputTokens;
    totals.outputTokens += q.outputTokens;
    totals.costMicros += Number(g.cost_micros);
    if (rules) {
      const cost = BigInt(g.cost_micros) * 1_000_000n;
      const rule = pickRule(rules, { agentId: g.agent_id, modelId: g.model_id, appId: app.id });
      totals.billedMicros += rule ? ruleMicros(rule, q, cost) : toMicros(cost);
    }
  }
  return {
    appId: app.id,
    from: range.from,
    to: range.to,
    runs: totals.runs,
    inputTokens: totals.inputTokens,
    outputTokens: totals.outputTokens,
    costUsd: microsToUsd(totals.costMicros),
    priceListId: app.priceList?.id ?? null,
    billedUsd: rules ? microsToUsd(totals.billedMicros) : null,
  };
}
