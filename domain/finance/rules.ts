import type { EntityManager } from '@mikro-orm/postgresql';
import { FinanceRule } from '../../db/entities/FinanceRule';
import { FinanceTransaction } from '../../db/entities/FinanceTransaction';
import { Workspace } from '../../db/entities/Workspace';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { findPage } from '../shared/pagination';
import { categoryFromBody } from './categories';
import { amountToMicros } from './money';
import { presentRule, type RuleView } from './presenters';
import { categorize, compileRegex, orderRules } from './ruleEngine';

export interface RuleRequest {
  match: { descriptionContains?: string; descriptionRegex?: string; amountMin?: number; amountMax?: number };
  categoryId: string;
  priority: number;
}

/**
 * Adds a rule. A regular expression is compiled by the linear-time engine first, so one it cannot run
 * (backreferences, lookaround) is refused rather than stored.
 * @throws `validation_error` for an unknown category, an unsupported pattern, or `amountMin` > `amountMax`
 */
export async function createRule(em: EntityManager, identity: Identity, body: RuleRequest): Promise<RuleView> {
  const { match } = body;
  if (match.descriptionRegex !== undefined) compileRegex(match.descriptionRegex, 'match.descriptionRegex');
  if (match.amountMin !== undefined && match.amountMax !== undefined && match.amountMin > match.amountMax) {
    throw errors.validation([{ path: 'match.amountMin', message: 'amountMin is greater than amountMax' }]);
  }
  const category = await categoryFromBody(em, identity.workspaceId, body.categoryId);
  const rule = new FinanceRule(em.getReference(Workspace, identity.workspaceId), category!, body.priority);
  rule.descriptionContains = match.descriptionContains ?? null;
  rule.descriptionRegex = match.descriptionRegex ?? null;
  rule.amountMinMicros = match.amountMin === undefined ? null : amountToMicros(match.amountMin);
  rule.amountMaxMicros = match.amountMax === undefined ? null : amountToMicros(match.amountMax);
  await em.persist(rule).flush();
  return presentRule(rule);
}

/** One page of the workspace's rules, newest first. */
export async function listRules(
  em: EntityManager,
  identity: Identity,
  page: { limit: number; cursor?: string },
): Promise<{ rules: RuleView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(em, FinanceRule, { workspace: identity.workspaceId }, page);
  return { rules: items.map(presentRule), nextCursor };
}

/** Deletes a rule; categories it set stay. @throws `not_found` */
export async function deleteRule(em: EntityManager, identity: Identity, id: string): Promise<void> {
  const removed = await em.nativeDelete(FinanceRule, { id, workspace: identity.workspaceId });
  if (!removed) throw errors.notFound('Rule');
}

/** Rows read per step while rules are applied to the stored transactions. */
const PAGE = 2000;

/**
 * Applies the rules to the workspace's transactions (those dated within `from`..`to` when given) in one
 * transaction. A category a person set (PATCH) is kept; any other is what the rules say now, null when no
 * rule matches. Answers how many transactions were looked at and how many changed.
 */
export async function applyRules(
  em: EntityManager,
  identity: Identity,
  range: { from?: string; to?: string },
): Promise<{ examined: number; updated: number }> {
  const workspaceId = identity.workspaceId;
  const rules = orderRules(await em.find(FinanceRule, { workspace: workspaceId }));
  let examined = 0;
  let updated = 0;
  await em.transactional(async (tx) => {
    let after: string | null = null;
    for (;;) {
      const where: Record<string, unknown> = { workspace: workspaceId, categoryManual: false };
      if (range.from || range.to)
        where.date = { ...(range.from && { $gte: range.from }), ...(range.to && { $lte: range.to }) };
      if (after) where.id = { $gt: after };
      const rows = await tx.find(FinanceTransaction, where, {
        orderBy: { id: 'asc' },
        limit: PAGE,
        fields: ['id', 'description', 'amountMicros', 'category'],
      });
      if (rows.length === 0) break;
      const changes = new Map<string | null, string[]>();
      for (const row of rows) {
        const next = categorize(rules, row.description, row.amountMicros);
        if (next !== (row.category?.id ?? null)) changes.set(next, [...(changes.get(next) ?? []), row.id]);
      }
      for (const [categoryId, ids] of changes) {
        updated += await tx.nativeUpdate(FinanceTransaction, { id: { $in: ids } }, { category: categoryId });
      }
      examined += rows.length;
      after = rows[rows.length - 1].id;
      tx.clear();
    }
  });
  return { examined, updated };
}
