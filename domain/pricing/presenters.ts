import type { PriceList, PricingRule } from '../../db/entities/PriceList';
import { microsToUsd } from '../shared/money';

/** 1 % of markup is 10,000 parts per million. */
export const PPM_PER_PERCENT = 10_000;

export interface PriceListView {
  id: string;
  name: string;
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface PricingRuleView {
  id: string;
  priceListId: string;
  match: { agentId: string | null; modelId: string | null; appId: string | null };
  perRunUsd: number | null;
  inputPerMTokUsd: number | null;
  outputPerMTokUsd: number | null;
  markupPercent: number | null;
  priority: number;
  createdAt: string;
  updatedAt: string;
}

export function presentPriceList(p: PriceList): PriceListView {
  return {
    id: p.id,
    name: p.name,
    isDefault: p.isDefault,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

const usd = (micros: number | null) => (micros === null ? null : microsToUsd(micros));

export function presentRule(r: PricingRule): PricingRuleView {
  return {
    id: r.id,
    priceListId: r.priceList.id,
    match: { agentId: r.matchAgentId, modelId: r.matchModelId, appId: r.matchAppId },
    perRunUsd: usd(r.perRunMicros),
    inputPerMTokUsd: usd(r.inputPerMTokMicros),
    outputPerMTokUsd: usd(r.outputPerMTokMicros),
    markupPercent: r.markupPpm === null ? null : r.markupPpm / PPM_PER_PERCENT,
    priority: r.priority,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}
