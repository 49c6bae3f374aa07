import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PriceList } from '../../db/entities/PriceList';
import { Workspace } from '../../db/entities/Workspace';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { findPage } from '../shared/pagination';
import { presentPriceList, type PriceListView } from './presenters';

/** Price lists a workspace may hold (docs/api/pricing.md#limits). */
export const MAX_PRICE_LISTS = 100;

/**
 * Loads a price list of the workspace. Throws `not_found` for any other id, another workspace's
 * included, so ids of other workspaces cannot be probed.
 */
export async function findPriceList(em: EntityManager, workspaceId: string, id: string): Promise<PriceList> {
  const list = await em.findOne(PriceList, { id, workspace: workspaceId });
  if (!list) throw errors.notFound('Price list');
  return list;
}

/**
 * Makes `list` the workspace's only default: the others lose the mark first, then it gets it. Runs in
 * the caller's transaction after the workspace row is locked, so two lists made default at once become
 * default one after the other and the last one wins (the partial unique index is the backstop).
 */
async function takeDefault(tx: EntityManager, workspaceId: string, list: PriceList): Promise<void> {
  await tx.nativeUpdate(
    PriceList,
    { workspace: workspaceId, isDefault: true, id: { $ne: list.id } },
    { isDefault: false },
  );
  list.isDefault = true;
}

/**
 * Creates a price list; `isDefault: true` makes it the only default of the workspace, atomically.
 * Throws `conflict` when the workspace already holds {@link MAX_PRICE_LISTS}.
 */
export async function createPriceList(
  em: EntityManager,
  identity: Identity,
  input: { name: string; isDefault?: boolean },
): Promise<PriceListView> {
  const list = await em.transactional(async (tx) => {
    const workspace = await tx.findOneOrFail(Workspace, identity.workspaceId, {
      lockMode: LockMode.PESSIMISTIC_WRITE,
    });
    const count = await tx.count(PriceList, { workspace: workspace.id });
    if (count >= MAX_PRICE_LISTS) {
      throw errors.conflict(`This workspace already has ${count} price lists, the most it may hold`, {
        limit: MAX_PRICE_LISTS,
      });
    }
    const created = new PriceList(workspace, input.name);
    if (input.isDefault) await takeDefault(tx, workspace.id, created);
    tx.persist(created);
    return created;
  });
  return presentPriceList(list);
}

/** One page of the workspace's price lists, newest first. Throws `validation_error` for a malformed cursor. */
export async function listPriceLists(
  em: EntityManager,
  identity: Identity,
  page: { limit: number; cursor?: string },
): Promise<{ priceLists: PriceListView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(em, PriceList, { workspace: identity.workspaceId }, page);
  return { priceLists: items.map(presentPriceList), nextCursor };
}

/** A price list of the workspace. Throws `not_found`. */
export async function getPriceList(em: EntityManager, identity: Identity, id: string): Promise<PriceListView> {
  return presentPriceList(await findPriceList(em, identity.workspaceId, id));
}

/**
 * Renames a price list or changes whether it is the default (`true` takes the mark from any other list,
 * atomically; `false` leaves the workspace without a default). Throws `not_found`.
 */
export async function updatePriceList(
  em: EntityManager,
  identity: Identity,
  id: string,
  input: { name?: string; isDefault?: boolean },
): Promise<PriceListView> {
  const list = await em.transactional(async (tx) => {
    await tx.findOneOrFail(Workspace, identity.workspaceId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const found = await tx.findOne(PriceList, { id, workspace: identity.workspaceId }, { refresh: true });
    if (!found) throw errors.notFound('Price list');
    if (input.name !== undefined) found.name = input.name;
    if (input.isDefault === true) await takeDefault(tx, identity.workspaceId, found);
    if (input.isDefault === false) found.isDefault = false;
    found.updatedAt = new Date();
    return found;
  });
  return presentPriceList(list);
}

/** Deletes a price list and its rules; a deleted default leaves the workspace without one. Throws `not_found`. */
export async function deletePriceList(em: EntityManager, identity: Identity, id: string): Promise<void> {
  const list = await findPriceList(em, identity.workspaceId, id);
  await em.nativeDelete(PriceList, { id: list.id });
}
