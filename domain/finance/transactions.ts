import type { EntityManager } from '@mikro-orm/postgresql';
import { FinanceTransaction } from '../../db/entities/FinanceTransaction';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { findPage } from '../shared/pagination';
import { categoryFromBody } from './categories';
import { presentTransaction, type TransactionView } from './presenters';

export interface TransactionFilter {
  from?: string;
  to?: string;
  categoryId?: string;
  q?: string;
}

/** `%`, `_` and `\` stand for themselves in a search. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The ORM filter for the workspace's transactions within the filter (dates inclusive; `q` any text field). */
export function transactionWhere(workspaceId: string, filter: TransactionFilter): Record<string, unknown> {
  const where: Record<string, unknown> = { workspace: workspaceId };
  if (filter.from || filter.to) {
    where.date = { ...(filter.from && { $gte: filter.from }), ...(filter.to && { $lte: filter.to }) };
  }
  if (filter.categoryId) where.category = filter.categoryId;
  if (filter.q) {
    const like = likePattern(filter.q);
    where.$or = [{ description: { $ilike: like } }, { counterparty: { $ilike: like } }, { note: { $ilike: like } }];
  }
  return where;
}

/** One page of transactions, newest first. */
export async function listTransactions(
  em: EntityManager,
  identity: Identity,
  query: TransactionFilter & { limit: number; cursor?: string },
): Promise<{ transactions: TransactionView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(
    em,
    FinanceTransaction,
    transactionWhere(identity.workspaceId, query),
    query,
  );
  return { transactions: items.map(presentTransaction), nextCursor };
}

/** A transaction of the workspace. @throws `not_found` */
export async function getTransaction(em: EntityManager, identity: Identity, id: string): Promise<TransactionView> {
  const row = await em.findOne(FinanceTransaction, { id, workspace: identity.workspaceId });
  if (!row) throw errors.notFound('Transaction');
  return presentTransaction(row);
}

/**
 * Edits a transaction's category, note or counterparty (`null` clears). A category set here is the
 * person's choice: rules applied later leave it alone. @throws `not_found`; `validation_error` for an
 * unknown category
 */
export async function updateTransaction(
  em: EntityManager,
  identity: Identity,
  id: string,
  patch: { categoryId?: string | null; note?: string | null; counterparty?: string | null },
): Promise<TransactionView> {
  const row = await em.findOne(FinanceTransaction, { id, workspace: identity.workspaceId });
  if (!row) throw errors.notFound('Transaction');
  if (patch.categoryId !== undefined) {
    row.category = await categoryFromBody(em, identity.workspaceId, patch.categoryId);
    row.categoryManual = patch.categoryId !== null;
  }
  if (patch.note !== undefined) row.note = patch.note;
  if (patch.counterparty !== undefined) row.counterparty = patch.counterparty;
  await em.flush();
  return presentTransaction(row);
}
