import type { EntityManager } from '@mikro-orm/postgresql';
import { Agent } from '../../db/entities/Agent';
import { PriceList, PricingRule } from '../../db/entities/PriceList';
import { usdToMicros, microsToUsd } from '../shared/money';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { currentVersion } from '../agents/find';
import { pickRule, type Subject } from './match';
import { ruleMicros, scaledAmount, toMicros, type Quantity, type UnitPrices } from './price';
import { findPriceList } from './priceLists';
import type { PricingDeps } from './rules';

/** The service's own prices of a model in micro-USD (what it charges the workspace); unknown models cost 0, as in billing. */
function servicePrices(deps: PricingDeps, modelId: string): UnitPrices {
  const p = deps.models.get(modelId)?.pricing ?? { perRunUsd: 0, inputPerMTokUsd: 0, outputPerMTokUsd: 0 };
  return {
    perRunMicros: usdToMicros(p.perRunUsd),
    inputPerMTokMicros: usdToMicros(p.inputPerMTokUsd),
    outputPerMTokMicros: usdToMicros(p.outputPerMTokUsd),
  };
}

/** What the list asks for `q` of `subject`, given the service's cost of it (micro-USD × 10⁻⁶). */
function price(rules: PricingRule[], subject: Subject, q: Quantity, costScaled: bigint) {
  const rule = pickRule(rules, subject);
  return { micros: rule ? ruleMicros(rule, q, costScaled) : toMicros(costScaled), rule };
}

/**
 * What a price list asks for one run of an agent (its current version's model) with these tokens:
 * the matching rule of highest priority, its markup applied to the service's cost of that model; with no
 * matching rule, the service's cost itself (docs/api/pricing.md#quotes). Throws `not_found` for the
 * list and `validation_error` (path `agentId`) for an agent that is not a live agent of the workspace.
 */
export async function quote(
  em: EntityManager,
  deps: PricingDeps,
  identity: Identity,
  priceListId: string,
  input: { agentId: string; inputTokens: number; outputTokens: number },
): Promise<{ priceUsd: number; ruleId: string | null }> {
  const list = await findPriceList(em, identity.workspaceId, priceListId);
  const agent = await em.findOne(Agent, { id: input.agentId, workspace: identity.workspaceId, deletedAt: null });
  if (!agent) throw errors.validation([{ path: 'agentId', message: `Unknown agent ${input.agentId}` }]);
  const { modelId } = await currentVersion(em, agent);
  const q = { runs: 1, inputTokens: input.inputTokens, outputTokens: input.outputTokens };
  const cost = scaledAmount(servicePrices(deps, modelId), q);
  const rules = await em.find(PricingRule, { priceList: list.id });
  const { micros, rule } = price(rules, { agentId: agent.id, modelId }, q, cost);
  return { priceUsd: microsToUsd(micros), ruleId: rule?.id ?? null };
}

interface GroupRow {
  agent_id: string;
  model_id: string;
  app_id: string | null;
  runs: string;
  input_tokens: string;
  output_tokens: string;
  cost_micros: string;
}

/**
 * What a price list bills for the runs a usage report counts (finished between two UTC days, both
 * included): each run priced by the rule that matches its agent, the model of the version it ran and the
 * published app whose public page started it (docs/api/apps.md),
 * the markup applied to what the service actually charged for it. Runs are priced in groups of one agent,
 * model and app, each group rounded once to the micro-USD. Throws `validation_error` (path `priceListId`)
 * for a list that is not the workspace's: the id is in the query, not the path.
 */
export async function billedMicros(
  em: EntityManager,
  workspaceId: string,
  priceListId: string,
  from: string,
  to: string,
): Promise<number> {
  const list = await em.findOne(PriceList, { id: priceListId, workspace: workspaceId });
  if (!list) throw errors.validation([{ path: 'priceListId', message: `Unknown price list ${priceListId}` }]);
  const rules = await em.find(PricingRule, { priceList: list.id });
  const groups = await em.getConnection().execute<GroupRow[]>(
    `select r.agent_id::text as agent_id, coalesce(v.model_id, '') as model_id, t.app_id::text as app_id,
            count(*) as runs,
            coalesce(sum(r.input_tokens), 0) as input_tokens, coalesce(sum(r.output_tokens), 0) as output_tokens,
            coalesce(sum(r.cost_micros), 0) as cost_micros
       from runs r left join agent_versions v on v.agent_id = r.agent_id and v.version = r.agent_version
       left join app_run_tokens t on t.run_id = r.id
      where r.workspace_id = ? and r.completed_at >= ?::date and r.completed_at < ?::date + 1
      group by 1, 2, 3`,
    [workspaceId, from, to],
  );
  let total = 0;
  for (const g of groups) {
    const q = { runs: Number(g.runs), inputTokens: Number(g.input_tokens), outputTokens: Number(g.output_tokens) };
    const cost = BigInt(g.cost_micros) * 1_000_000n;
    const subject = { agentId: g.agent_id, modelId: g.model_id, appId: g.app_id ?? undefined };
    total += price(rules, subject, q, cost).micros;
  }
  return total;
}
