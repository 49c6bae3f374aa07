import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Agent } from '../../db/entities/Agent';
import { App } from '../../db/entities/App';
import { PriceList, PricingRule } from '../../db/entities/PriceList';
import { usdToMicros } from '../shared/money';
import { errors, type ValidationIssue } from '../errors';
import type { Identity } from '../identity/identity';
import type { ModelRegistry } from '../models/registry';
import { findPage } from '../shared/pagination';
import { findPriceList } from './priceLists';
import { PPM_PER_PERCENT, presentRule, type PricingRuleView } from './presenters';

/** Rules one price list may hold (docs/api/pricing.md#limits). */
export const MAX_RULES_PER_LIST = 500;

export interface PricingDeps {
  models: Pick<ModelRegistry, 'get'>;
}

/** A rule as a caller writes it; on update, `null` clears a price and an absent field keeps it. */
export interface RuleInput {
  match?: { agentId?: string | null; modelId?: string | null; appId?: string | null };
  perRunUsd?: number | null;
  inputPerMTokUsd?: number | null;
  outputPerMTokUsd?: number | null;
  markupPercent?: number | null;
  priority?: number;
}

const micros = (usd: number | null) => (usd === null ? null : usdToMicros(usd));

/**
 * Checks what the rule matches: an agent must be a live agent of the workspace, an app one of the
 * workspace's published apps (any status), and a model one the service knows. These ids are in the body,
 * so an unknown one, or another workspace's, is 400 `validation_error` at its path.
 */
async function checkMatch(em: EntityManager, deps: PricingDeps, workspaceId: string, m: RuleInput['match']) {
  const issues: ValidationIssue[] = [];
  if (m?.agentId && !(await em.count(Agent, { id: m.agentId, workspace: workspaceId, deletedAt: null }))) {
    issues.push({ path: 'match.agentId', message: `Unknown agent ${m.agentId}` });
  }
  if (m?.appId && !(await em.count(App, { id: m.appId, workspace: workspaceId }))) {
    issues.push({ path: 'match.appId', message: `Unknown app ${m.appId}` });
  }
  if (m?.modelId && !deps.models.get(m.modelId)) {
    issues.push({ path: 'match.modelId', message: `Unknown model ${m.modelId}` });
  }
  if (issues.length) throw errors.validation(issues);
}

/** Applies the fields given to the rule, then refuses a rule that would price nothing. */
function apply(rule: PricingRule, input: RuleInput): void {
  if (input.match) {
    rule.matchAgentId = input.match.agentId ?? null;
    rule.matchModelId = input.match.modelId ?? null;
    rule.matchAppId = input.match.appId ?? null;
  }
  if (input.perRunUsd !== undefined) rule.perRunMicros = micros(input.perRunUsd);
  if (input.inputPerMTokUsd !== undefined) rule.inputPerMTokMicros = micros(input.inputPerMTokUsd);
  if (input.outputPerMTokUsd !== undefined) rule.outputPerMTokMicros = micros(input.outputPerMTokUsd);
  if (input.markupPercent !== undefined) {
    rule.markupPpm = input.markupPercent === null ? null : Math.round(input.markupPercent * PPM_PER_PERCENT);
  }
  if (input.priority !== undefined) rule.priority = input.priority;
  const prices = [rule.perRunMicros, rule.inputPerMTokMicros, rule.outputPerMTokMicros, rule.markupPpm];
  if (prices.every((p) => p === null)) {
    throw errors.validation([
      { path: '', message: 'A rule sets at least one of perRunUsd, inputPerMTokUsd, outputPerMTokUsd, markupPercent' },
    ]);
  }
}

/**
 * Adds a rule to a price list of the workspace. Throws `not_found` for the list, `validation_error` for
 * an unknown agent or model or a rule without a price, `conflict` past {@link MAX_RULES_PER_LIST} (counted
 * under a lock on the list, so concurrent adds cannot pass it).
 */
export async function createRule(
  em: EntityManager,
  deps: PricingDeps,
  identity: Identity,
  priceListId: string,
  input: RuleInput & { priority: number },
): Promise<PricingRuleView> {
  const rule = await em.transactional(async (tx) => {
    const list = await tx.findOne(
      PriceList,
      { id: priceListId, workspace: identity.workspaceId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!list) throw errors.notFound('Price list');
    await checkMatch(tx, deps, identity.workspaceId, input.match);
    const count = await tx.count(PricingRule, { priceList: list.id });
    if (count >= MAX_RULES_PER_LIST) {
      throw errors.conflict(`This price list already has ${count} rules, the most it may hold`, {
        limit: MAX_RULES_PER_LIST,
      });
    }
    const created = new PricingRule(list, input.priority);
    apply(created, input);
    tx.persist(created);
    return created;
  });
  return presentRule(rule);
}

/** One page of a price list's rules, newest first. Throws `not_found`, or `validation_error` for a malformed cursor. */
export async function listRules(
  em: EntityManager,
  identity: Identity,
  priceListId: string,
  page: { limit: number; cursor?: string },
): Promise<{ rules: PricingRuleView[]; nextCursor: string | null }> {
  const list = await findPriceList(em, identity.workspaceId, priceListId);
  const { items, nextCursor } = await findPage(em, PricingRule, { priceList: list.id }, page);
  return { rules: items.map(presentRule), nextCursor };
}

/** Loads a rule whose price list belongs to the workspace. Throws `not_found`. */
async function findRule(em: EntityManager, workspaceId: string, id: string): Promise<PricingRule> {
  const rule = await em.findOne(PricingRule, { id, priceList: { workspace: workspaceId } });
  if (!rule) throw errors.notFound('Pricing rule');
  return rule;
}

/**
 * Changes a rule: `match` replaces the whole match, a price set to `null` is cleared. Throws `not_found`,
 * or `validation_error` for an unknown agent or model or a rule left without a price.
 */
export async function updateRule(
  em: EntityManager,
  deps: PricingDeps,
  identity: Identity,
  id: string,
  input: RuleInput,
): Promise<PricingRuleView> {
  const rule = await findRule(em, identity.workspaceId, id);
  await checkMatch(em, deps, identity.workspaceId, input.match);
  apply(rule, input);
  rule.updatedAt = new Date();
  await em.flush();
  return presentRule(rule);
}

/** Deletes a rule. Throws `not_found`. */
export async function deleteRule(em: EntityManager, identity: Identity, id: string): Promise<void> {
  const rule = await findRule(em, identity.workspaceId, id);
  await em.nativeDelete(PricingRule, { id: rule.id });
}
