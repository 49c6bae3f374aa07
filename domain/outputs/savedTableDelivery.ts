import type { EntityManager } from '@mikro-orm/postgresql';
import type { OutputAttempt, OutputConnection, OutputDelivery } from '../../db/entities/OutputConnection';
import { recordAttempt } from '../deliveries/deliveryLog';
import { OUTPUT_DELIVERIES } from './outputDeliveries';

/** What appending came to: the row is in, or the saved table is gone (no later attempt can succeed). */
export type AppendOutcome = { outcome: 'delivered' } | { outcome: 'target_gone'; error: string };

/**
 * The row an output becomes (docs/api/output-connections.md#saved-table-connections): a JSON object is
 * the row itself, its keys the columns; any other value (text, a number, a list, null) is `{ output }`.
 */
export function outputRow(output: unknown): Record<string, unknown> {
  if (output !== null && typeof output === 'object' && !Array.isArray(output)) return output as Record<string, unknown>;
  return { output: output ?? null };
}

/**
 * Appends a delivery's output as the last row of the connection's saved table and marks the delivery
 * `succeeded`, in one transaction that holds the delivery's row: a retried activity finds it succeeded
 * and appends nothing more. The saved table's row is locked too, so appends (and refreshes, which take
 * the same lock) follow one another. A table deleted since the connection was made fails the delivery.
 */
export async function appendOutputRow(
  em: EntityManager,
  delivery: OutputDelivery,
  conn: OutputConnection,
): Promise<AppendOutcome> {
  const at = new Date().toISOString();
  return em.transactional(async (tx) => {
    const [current]: Array<{ status: string }> = await tx.execute(
      'select status from output_deliveries where id = ? for update',
      [delivery.id],
    );
    if (current?.status !== 'pending') return { outcome: 'delivered' } as const;
    const tables: Array<{ id: string }> = conn.savedTableId
      ? await tx.execute('select id from saved_tables where id = ? and workspace_id = ? for update', [
          conn.savedTableId,
          conn.workspaceId,
        ])
      : [];
    const attempt: OutputAttempt = { at, statusCode: null, error: null };
    if (tables.length === 0) {
      const error = 'saved table deleted';
      await recordAttempt(tx, OUTPUT_DELIVERIES, delivery.id, { ...attempt, error }, 'failed');
      return { outcome: 'target_gone', error } as const;
    }
    const output = (JSON.parse(delivery.body) as { output?: unknown }).output;
    await tx.execute(
      `insert into saved_table_rows (saved_table_id, position, data)
       select ?, coalesce(max(position) + 1, 0), ?::jsonb from saved_table_rows where saved_table_id = ?`,
      [conn.savedTableId, JSON.stringify(outputRow(output)), conn.savedTableId],
    );
    await tx.execute('update saved_tables set row_count = row_count + 1, updated_at = now() where id = ?', [
      conn.savedTableId,
    ]);
    await recordAttempt(tx, OUTPUT_DELIVERIES, delivery.id, attempt, 'succeeded');
    return { outcome: 'delivered' } as const;
  });
}
