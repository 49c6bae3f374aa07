import type { EntityManager } from '@mikro-orm/postgresql';
import { DataSource } from '../../db/entities/DataSource';
import { SavedTable, SavedTableRow } from '../../db/entities/SavedTable';
import { readWith } from '../dataSources/browse';
import { SourceFailure, withSource, type SourceDeps } from '../dataSources/connection';
import { MAX_READ_ROWS } from '../dataSources/drivers/types';
import type { ReadRequest } from '../dataSources/readPlan';
import { ApiError } from '../errors';

const INSERT_BATCH = 500;

/**
 * Refreshes a saved table: runs its read against the source (up to 1000 rows) and replaces its rows
 * in one transaction, rows appended by save-output connections included (docs/api/output-connections.md). When the source fails (unreachable, a column gone), the table records `error`
 * and its message and keeps the rows of the last good refresh. A table deleted meanwhile is left alone.
 */
export async function refreshSavedTable(em: EntityManager, deps: SourceDeps, id: string): Promise<void> {
  const table = await em.findOne(SavedTable, id);
  if (!table) return;
  const source = await em.findOne(DataSource, table.dataSourceId);
  if (!source) return;
  const read = { ...(table.read as unknown as ReadRequest) };
  read.limit = Math.min(read.limit ?? MAX_READ_ROWS, MAX_READ_ROWS);
  let result;
  try {
    result = await withSource(em, deps, source, (driver) => readWith(driver, read));
  } catch (err) {
    if (!(err instanceof SourceFailure) && !(err instanceof ApiError)) throw err;
    const message =
      err instanceof ApiError && err.details?.issues
        ? (err.details.issues as Array<{ message: string }>).map((i) => i.message).join('; ')
        : err.message;
    await em.nativeUpdate(SavedTable, { id }, { status: 'error', error: message, updatedAt: new Date() });
    return;
  }
  const rows = result.rows;
  await em.transactional(async (tx) => {
    // the lock appended outputs take (domain/outputs/savedTableDelivery.ts): the two follow one another
    await tx.execute('select id from saved_tables where id = ? for update', [id]);
    await tx.nativeDelete(SavedTableRow, { savedTableId: id });
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      await tx.insertMany(
        SavedTableRow,
        rows.slice(i, i + INSERT_BATCH).map((data, j) => ({ savedTableId: id, position: i + j, data })),
      );
    }
    await tx.nativeUpdate(
      SavedTable,
      { id },
      {
        status: 'ok',
        error: null,
        rowCount: rows.length,
        columns: result.columns,
        refreshedAt: new Date(),
        updatedAt: new Date(),
      },
    );
  });
}
