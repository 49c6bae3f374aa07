import { Socket } from 'node:net';
import { Client, Query, types } from 'pg';
import { meterSocket, RowBudget, wireLimit } from './budget';
import { buildSelect, postgresDialect } from './sql';
import type { DatabaseTarget } from './target';
import {
  jsonValue,
  STATEMENT_TIMEOUT_MS,
  type Driver,
  type ReadPlan,
  type SourceColumn,
  type SourceObject,
} from './types';

interface PgObject extends SourceObject {
  schema: string;
  table: string;
}

// date, timestamp, timestamptz, time, timetz, interval
const TEXT_AS_IS = new Set([1082, 1114, 1184, 1083, 1266, 1186]);

const OBJECTS_SQL = `select table_schema as schema, table_name as table, table_type as type
  from information_schema.tables
  where table_schema not in ('pg_catalog', 'information_schema') and table_schema not like 'pg\\_%'
  order by table_schema, table_name limit 1000`;

const COLUMNS_SQL = `select column_name as name, data_type as type, is_nullable as nullable
  from information_schema.columns where table_schema = $1 and table_name = $2 order by ordinal_position`;

/**
 * A PostgreSQL source, read-only: the session defaults to read-only transactions and every statement
 * runs inside `BEGIN READ ONLY` with a 10 s `statement_timeout` (docs/api/data-sources.md).
 */
export async function openPostgres(target: DatabaseTarget): Promise<Driver> {
  const socket = new Socket();
  let onCut = () => undefined as void;
  const meter = meterSocket(socket, wireLimit(target.maxReadBytes), () => onCut());
  const client = new Client({
    stream: () => socket,
    host: target.address,
    port: target.port,
    database: target.database,
    user: target.user,
    password: target.password,
    ssl: target.ssl ? { servername: target.host } : false,
    connectionTimeoutMillis: STATEMENT_TIMEOUT_MS,
    query_timeout: STATEMENT_TIMEOUT_MS + 2000,
    application_name: 'svc-data-source',
    // dates and timestamps as the server prints them: a date is a day, not a midnight in our time zone
    types: {
      getTypeParser: (oid, format) => (TEXT_AS_IS.has(oid) ? (v: string) => v : types.getTypeParser(oid, format)),
    },
    options: `-c default_transaction_read_only=on -c statement_timeout=${STATEMENT_TIMEOUT_MS}`,
  });
  // an error after connecting (the server going away) must not crash the process
  client.on('error', () => undefined);
  await client.connect();

  const readOnly = async <T>(fn: () => Promise<T>): Promise<T> => {
    await client.query('BEGIN TRANSACTION READ ONLY');
    try {
      await client.query(`SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}`);
      return await fn();
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
    }
  };
  const objects = async (): Promise<PgObject[]> => {
    const res = await readOnly(() => client.query<{ schema: string; table: string; type: string }>(OBJECTS_SQL));
    return res.rows.map((r) => ({
      name: r.schema === 'public' ? r.table : `${r.schema}.${r.table}`,
      kind: r.type === 'VIEW' ? 'view' : 'table',
      schema: r.schema,
      table: r.table,
    }));
  };
  const find = async (name: string) => (await objects()).find((o) => o.name === name);

  return {
    async ping() {
      await readOnly(() => client.query('select 1'));
    },
    async listObjects() {
      return (await objects()).map(({ name, kind }) => ({ name, kind }));
    },
    async describe(name): Promise<SourceColumn[] | null> {
      const object = await find(name);
      if (!object) return null;
      const res = await readOnly(() =>
        client.query<{ name: string; type: string; nullable: string }>(COLUMNS_SQL, [object.schema, object.table]),
      );
      return res.rows.map((r) => ({ name: r.name, type: r.type, nullable: r.nullable === 'YES' }));
    },
    async read(plan: ReadPlan) {
      const object = await find(plan.object);
      if (!object) throw new Error(`object ${plan.object} disappeared`);
      const from = `${postgresDialect.quote(object.schema)}.${postgresDialect.quote(object.table)}`;
      const { sql, values } = buildSelect(postgresDialect, from, plan);
      // rows as arrays: two selected columns of one name cannot collide, and the order is the plan's. They
      // arrive one by one into a byte budget; a spent budget, or a value too big for it on the wire, cuts the
      // connection (this driver is closed after the read anyway) and answers the rows that fit
      const budget = new RowBudget(target.maxReadBytes, plan.limit);
      onCut = () => budget.cut();
      await readOnly(
        () =>
          new Promise<void>((resolve, reject) => {
            // completion through the callback: with a query timeout set, the client takes over the events
            const query = new Query(
              { text: sql, values, rowMode: 'array' } as never,
              undefined,
              (err?: Error | null) => (err && !budget.spent ? reject(err) : resolve()),
            );
            query.on('row', (row: unknown[]) => {
              if (!budget.take(row) && budget.spent) socket.destroy();
            });
            meter.arm();
            void client.query(query);
          }),
      ).finally(() => meter.disarm());
      const rows = budget.rows.map((row) => {
        const out: Record<string, unknown> = {};
        plan.columns.forEach((c, i) => (out[c] = jsonValue(row[i])));
        return out;
      });
      return { columns: plan.columns, rows, truncated: budget.truncated };
    },
    close: () => client.end().catch(() => undefined),
  };
}
