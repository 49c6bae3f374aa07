import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { FinanceCategory, type CategoryKind } from '../../db/entities/FinanceCategory';
import { Workspace } from '../../db/entities/Workspace';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { findPage } from '../shared/pagination';
import { presentCategory, type CategoryView } from './presenters';

/** The default chart every workspace starts with (docs/api/finance.md). */
export const DEFAULT_CHART: Array<[string, CategoryKind]> = [
  ['Salary', 'income'],
  ['Sales', 'income'],
  ['Interest', 'income'],
  ['Other income', 'income'],
  ['Rent', 'expense'],
  ['Utilities', 'expense'],
  ['Groceries', 'expense'],
  ['Dining', 'expense'],
  ['Transport', 'expense'],
  ['Travel', 'expense'],
  ['Software', 'expense'],
  ['Office', 'expense'],
  ['Insurance', 'expense'],
  ['Taxes', 'expense'],
  ['Bank fees', 'expense'],
  ['Other expense', 'expense'],
  ['Transfers', 'transfer'],
];

/**
 * Writes the default chart for the workspace if it is not there yet. One statement, `on conflict do
 * nothing`, so concurrent first calls leave one chart and a category a person renamed is not recreated twice.
 */
export async function ensureDefaultChart(em: EntityManager, workspaceId: string): Promise<void> {
  const exists = await em.count(FinanceCategory, { workspace: workspaceId, isDefault: true });
  if (exists) return;
  const now = new Date();
  const values = DEFAULT_CHART.map(() => '(?, ?, ?, ?, ?, ?, true)').join(', ');
  const params = DEFAULT_CHART.flatMap(([name, kind]) => [randomUUID(), now, now, workspaceId, name, kind]);
  await em.getConnection().execute(
    `insert into finance_categories (id, created_at, updated_at, workspace_id, name, kind, is_default) values ${values}
       on conflict (workspace_id, name) do nothing`,
    params,
  );
}

/** One page of the workspace's categories (the default chart included), newest first. */
export async function listCategories(
  em: EntityManager,
  identity: Identity,
  page: { limit: number; cursor?: string },
): Promise<{ categories: CategoryView[]; nextCursor: string | null }> {
  await ensureDefaultChart(em, identity.workspaceId);
  const { items, nextCursor } = await findPage(em, FinanceCategory, { workspace: identity.workspaceId }, page);
  return { categories: items.map(presentCategory), nextCursor };
}

/** Adds a category. @throws `conflict` when the workspace has one of that name */
export async function createCategory(
  em: EntityManager,
  identity: Identity,
  input: { name: string; kind: CategoryKind },
): Promise<CategoryView> {
  await ensureDefaultChart(em, identity.workspaceId);
  const category = new FinanceCategory(em.getReference(Workspace, identity.workspaceId), input.name, input.kind);
  try {
    await em.persist(category).flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw errors.conflict(`A category named ${input.name} exists`);
    throw err;
  }
  return presentCategory(category);
}

/**
 * A category of the workspace named in a body (`categoryId`): `null` passes through.
 * @throws `validation_error` at `path` for an id that names no category of the workspace
 */
export async function categoryFromBody(
  em: EntityManager,
  workspaceId: string,
  id: string | null,
  path = 'categoryId',
): Promise<FinanceCategory | null> {
  if (id === null) return null;
  const category = await em.findOne(FinanceCategory, { id, workspace: workspaceId });
  if (!category) throw errors.validation([{ path, message: `Unknown category ${id}` }]);
  return category;
}
