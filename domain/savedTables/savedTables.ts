import type { EntityManager } from '@mikro-orm/postgresql';
import { DataSource } from '../../db/entities/DataSource';
import { SavedTable, SavedTableRow } from '../../db/entities/SavedTable';
import type { Config } from '../../platform/config';
import type { Temporal } from '../../platform/temporal';
import type { ReadRequest } from '../dataSources/readPlan';
import { errors } from '../errors';
import { checkCronInterval } from '../quotas/cronInterval';
import { claimQuota } from '../quotas/quotas';
import { decodePositionCursor, encodePositionCursor, findPage } from '../shared/pagination';
import { presentSavedTable, type SavedTableView } from './presenters';
import { createRefreshSchedule, deleteRefreshSchedule, startRefresh } from './workflows';

export interface SavedTableDeps {
  temporal: Temporal;
  config: Config['temporal'];
  /** A refresh cron fires at most this often (`SVC_MIN_SCHEDULE_MINUTES`). */
  minScheduleMinutes: number;
}

/** A saved table of the workspace. Throws `not_found` for any other id, another workspace's included. */
export async function findSavedTable(em: EntityManager, workspaceId: string, id: string): Promise<SavedTable> {
  const table = await em.findOne(SavedTable, { id, workspaceId });
  if (!table) throw errors.notFound('Saved table');
  return table;
}

/** Temporal refused or did not answer: the change is undone by the caller and this is the answer. */
function temporalError(err: unknown): Error {
  const message = (err as Error).message ?? '';
  // gRPC INVALID_ARGUMENT: Temporal refused the schedule's spec
  if ((err as { code?: unknown }).code === 3 || /cron|invalid|parse/i.test(message)) {
    return errors.validation([{ path: 'refresh.cron', message: `Not a valid cron expression: ${message}` }]);
  }
  return errors.unavailable('Temporal');
}

/**
 * Creates a saved table over a source of the workspace, makes its cron a Temporal Schedule and starts
 * its first refresh. Throws 400 when `dataSourceId` names no source of the workspace, the cron fires more
 * often than `SVC_MIN_SCHEDULE_MINUTES` or Temporal refuses it, 409 (`details.quota`) when the plan's saved
 * tables or schedules are all in use, 503 when Temporal does not answer (nothing is kept then).
 */
export async function createSavedTable(
  em: EntityManager,
  deps: SavedTableDeps,
  workspaceId: string,
  input: { name: string; dataSourceId: string; read: ReadRequest; refresh?: { cron?: string | null } },
): Promise<SavedTableView> {
  const source = await em.findOne(DataSource, { id: input.dataSourceId, workspaceId });
  if (!source)
    throw errors.validation([{ path: 'dataSourceId', message: `Unknown data source ${input.dataSourceId}` }]);
  const cron = input.refresh?.cron ?? null;
  if (cron) checkCronInterval(cron, deps.minScheduleMinutes, 'refresh.cron');
  const table = new SavedTable(workspaceId, source.id, input.name, { ...input.read }, cron);
  await em.transactional(async (tx) => {
    await claimQuota(tx, workspaceId, { savedTables: 1, schedules: cron ? 1 : 0 });
    tx.persist(table);
  });
  try {
    if (cron) await deps.temporal.call(() => createRefreshSchedule(deps.temporal.client, deps.config, table, cron));
    await deps.temporal.call(() => startRefresh(deps.temporal.client, deps.config, table));
  } catch (err) {
    await deleteRefreshSchedule(deps.temporal.client, table.id).catch(() => undefined);
    await em.nativeDelete(SavedTable, { id: table.id });
    throw temporalError(err);
  }
  return presentSavedTable(table);
}

export async function listSavedTables(
  em: EntityManager,
  workspaceId: string,
  page: { limit: number; cursor?: string },
): Promise<{ savedTables: SavedTableView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(em, SavedTable, { workspaceId }, page);
  return { savedTables: items.map(presentSavedTable), nextCursor };
}

/** Starts a refresh now (or has the one running read once more). Throws `not_found`, 503 when Temporal does not answer. */
export async function refreshNow(
  em: EntityManager,
  deps: SavedTableDeps,
  workspaceId: string,
  id: string,
): Promise<SavedTableView> {
  const table = await findSavedTable(em, workspaceId, id);
  try {
    await deps.temporal.call(() => startRefresh(deps.temporal.client, deps.config, table));
  } catch {
    throw errors.unavailable('Temporal');
  }
  return presentSavedTable(table);
}

/** One page of the table's rows in the order its read returned them (`?cursor=` from the last page). */
export async function savedTableRows(
  em: EntityManager,
  workspaceId: string,
  id: string,
  page: { limit: number; cursor?: string },
): Promise<{ rows: Array<Record<string, unknown>>; nextCursor: string | null }> {
  const table = await findSavedTable(em, workspaceId, id);
  const from = decodePositionCursor(page.cursor) ?? 0;
  const rows = await em.find(
    SavedTableRow,
    { savedTableId: table.id, position: { $gte: from } },
    { orderBy: { position: 'asc' }, limit: page.limit + 1 },
  );
  const more = rows.length > page.limit;
  return {
    rows: rows.slice(0, page.limit).map((r) => r.data),
    nextCursor: more ? encodePositionCursor(rows[page.limit].position) : null,
  };
}

/** Deletes the table, its rows and its schedule. Throws `not_found`, 503 when Temporal does not answer. */
export async function deleteSavedTable(
  em: EntityManager,
  deps: SavedTableDeps,
  workspaceId: string,
  id: string,
): Promise<void> {
  const table = await findSavedTable(em, workspaceId, id);
  if (table.cron) {
    try {
      await deps.temporal.call(() => deleteRefreshSchedule(deps.temporal.client, table.id));
    } catch {
      throw errors.unavailable('Temporal');
    }
  }
  await em.nativeDelete(SavedTable, { id: table.id });
}
