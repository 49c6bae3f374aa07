import type { PricingRule } from '../../db/entities/PriceList';

/** What a price is asked for: the agent, the model it runs on, the published app a run was made through. */
export interface Subject {
  agentId: string;
  modelId: string;
  appId?: string;
}

const specificity = (r: PricingRule) =>
  Number(r.matchAgentId !== null) + Number(r.matchModelId !== null) + Number(r.matchAppId !== null);

/** Whether every match field the rule sets equals the subject's (a rule that sets none matches all). */
export function matches(rule: PricingRule, s: Subject): boolean {
  return (
    (rule.matchAgentId === null || rule.matchAgentId === s.agentId) &&
    (rule.matchModelId === null || rule.matchModelId === s.modelId) &&
    (rule.matchAppId === null || rule.matchAppId === s.appId)
  );
}

/**
 * The rule that prices a subject: the matching rule of highest priority; among equal priorities the
 * more specific (more match fields set), then the older, then the smaller id, so the choice is always
 * the same one (docs/api/pricing.md#quotes).
 */
export function pickRule(rules: PricingRule[], s: Subject): PricingRule | null {
  const candidates = rules.filter((r) => matches(r, s));
  candidates.sort(
    (a, b) =>
      b.priority - a.priority ||
      specificity(b) - specificity(a) ||
      a.createdAt.getTime() - b.createdAt.getTime() ||
      (a.id < b.id ? -1 : 1),
  );
  return candidates[0] ?? null;
}
