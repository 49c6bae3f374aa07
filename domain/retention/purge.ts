import type { EntityManager } from '@mikro-orm/postgresql';
import type { Plan } from '../../db/entities/Workspace';
import type { RetentionTable } from '../../workflows/retentionWorkflow';
import { OUTBOX_DONE_DAYS } from './policy';

interface PlannedTable {
  key: string;
  /** The cursor's first key, below every real one. */
  lowest: string;
  keyType: 'bigint' | 'uuid';
  /** The table as `t`, joined to its workspace as `w`. */
  from: string;
}

const PLANNED: Record<Exclude<RetentionTable, 'outbox'>, PlannedTable> = {
  run_events: {
    key: 'seq',
    lowest: '0',
    keyType: 'bigint',
    from: `"run_events" t join "runs" r on r."id" = t."run_id" join "workspaces" w on w."id" = r."workspace_id"`,
  },
  webhook_deliveries: {
    key: 'id',
    lowest: '00000000-0000-0000-0000-000000000000',
    keyType: 'uuid',
    from: `"webhook_deliveries" t join "workspaces" w on w."id" = t."workspace_id"`,
  },
  webhook_events: {
    key: 'id',
    lowest: '00000000-0000-0000-0000-000000000000',
    keyType: 'uuid',
    from: `"webhook_events" t join "workspaces" w on w."id" = t."workspace_id"`,
  },
  conversation_messages: {
    key: 'id',
    lowest: '00000000-0000-0000-0000-000000000000',
    keyType: 'uuid',
    from: `"conversation_messages" t join "conversations" c on c."id" = t."conversation_id"
           join "workspaces" w on w."id" = c."workspace_id"`,
  },
};

/**
 * One batch: the next `limit` rows older than the shortest plan's days, oldest first after the cursor (an
 * index range, Migration20261207122500), of which those past their own workspace's plan go. The rows a
 * longer plan keeps are stepped over by the cursor, never read again in the same sweep. The cursor's time
 * travels as text, so a microsecond is not lost on the way and the walk always moves on.
 */
function batchSql(table: string, t: PlannedTable): string {
  return `with candidates as (
      select t."created_at" as ts, t."${t.key}" as pk,
             t."created_at" < now() - make_interval(days => coalesce((?::jsonb ->> w."plan")::int, ?)) as expired
        from ${t.from}
       where t."created_at" < now() - make_interval(days => ?)
         and (t."created_at", t."${t.key}") > (?::timestamptz, ?::${t.keyType})
       order by t."created_at", t."${t.key}"
       limit ?
    ), gone as (
      delete from "${table}" where "${t.key}" in (select pk from candidates where expired) returning 1
    )
    select (select count(*) from gone)::int as deleted, last.ts::text as ts, last.pk::text as pk
      from (select ts, pk from candidates order by ts desc, pk desc limit 1) last`;
}

const OUTBOX_SQL = `delete from "outbox" where "id" in (
    select "id" from "outbox" where "done_at" < now() - make_interval(days => ?) order by "done_at" limit ?) returning 1`;

/** Where a sweep of one table has got to: the last row it looked at. */
export interface BatchCursor {
  ts: string;
  pk: string;
}

/**
 * One batch's statement over `table` and its parameters, after `cursor` (from the start without one). Its
 * own function so that the benchmark can EXPLAIN the very statement a sweep runs (bench/README.md).
 */
export function purgeBatchStatement(
  table: Exclude<RetentionTable, 'outbox'>,
  daysByPlan: Record<Plan, number>,
  batchSize: number,
  cursor?: BatchCursor,
): { sql: string; params: unknown[] } {
  const planned = PLANNED[table];
  const days = Object.values(daysByPlan);
  const from = cursor ?? { ts: '-infinity', pk: planned.lowest };
  return {
    sql: batchSql(table, planned),
    params: [JSON.stringify(daysByPlan), Math.max(...days), Math.min(...days), from.ts, from.pk, batchSize],
  };
}

export interface PurgeOptions {
  /** Days each plan keeps (domain/retention/policy.ts). */
  daysByPlan: Record<Plan, number>;
  /** Rows one statement looks at (and at most deletes). */
  batchSize: number;
  /** Called after every batch with the rows deleted so far (an activity heartbeats with it). */
  onBatch?: (deletedSoFar: number) => void | Promise<void>;
}

/**
 * Deletes the rows of `table` past their workspace's retention, a batch per statement: each batch is its own
 * short transaction holding row locks on at most `batchSize` rows, so a sweep never blocks the writers of the
 * table for long and may stop (or fail) between any two batches without undoing the ones before. Returns the
 * rows deleted. Done outbox rows go after `OUTBOX_DONE_DAYS` whatever the plan; rows still to relay never do.
 */
export async function purgeExpired(em: EntityManager, table: RetentionTable, opts: PurgeOptions): Promise<number> {
  const conn = em.getConnection();
  let deleted = 0;
  if (table === 'outbox') {
    for (;;) {
      const n = (await conn.execute<unknown[]>(OUTBOX_SQL, [OUTBOX_DONE_DAYS, opts.batchSize])).length;
      deleted += n;
      await opts.onBatch?.(deleted);
      if (n < opts.batchSize) return deleted;
    }
  }
  let cursor: BatchCursor | undefined;
  for (;;) {
    const { sql, params } = purgeBatchStatement(table, opts.daysByPlan, opts.batchSize, cursor);
    const rows: Array<{ deleted: number; ts: string; pk: string }> = await conn.execute(sql, params);
    if (rows.length === 0) return deleted;
    deleted += rows[0].deleted;
    cursor = { ts: rows[0].ts, pk: rows[0].pk };
    await opts.onBatch?.(deleted);
  }
}
