import net from 'node:net';
import type { Connection as CoreConnection } from 'mysql2';
import type { RowDataPacket } from 'mysql2/promise';
import { mysql } from '../../../platform/lazyPackages';
import { meterSocket, RowBudget, wireLimit } from './budget';
import { buildSelect, mysqlDialect } from './sql';
import type { DatabaseTarget } from './target';
import { jsonValue, STATEMENT_TIMEOUT_MS, type Driver, type ReadPlan, type SourceColumn } from './types';

const OBJECTS_SQL = `select table_name as name, table_type as type from information_schema.tables
  where table_schema = database() order by table_name limit 1000`;
const COLUMNS_SQL = `select column_name as name, column_type as type, is_nullable as nullable
  from information_schema.columns where table_schema = database() and table_name = ? order by ordinal_position`;

/**
 * A MySQL or MariaDB source, read-only: the session's transactions are read-only, every statement runs
 * in `START TRANSACTION READ ONLY` and is cut after 10 s (`max_statement_time` on MariaDB,
 * `max_execution_time` on MySQL) (docs/api/data-sources.md).
 */
export async function openMysql(target: DatabaseTarget): Promise<Driver> {
  const socket = net.connect({ host: target.address, port: target.port });
  let onCut = () => undefined as void;
  const meter = meterSocket(socket, wireLimit(target.maxReadBytes), () => onCut());
  const conn = await (
    await mysql()
  ).createConnection({
    // TLS names the configured host; the socket goes to the address the guard checked
    host: target.host,
    port: target.port,
    stream: () => socket,
    database: target.database,
    user: target.user,
    password: target.password,
    ssl: target.ssl ? { rejectUnauthorized: true, verifyIdentity: true } : undefined,
    connectTimeout: STATEMENT_TIMEOUT_MS,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    multipleStatements: false,
  });
  conn.on('error', () => undefined);
  const q = async <T extends RowDataPacket>(sql: string, values: unknown[] = []) =>
    (await conn.query<T[]>({ sql, values, timeout: STATEMENT_TIMEOUT_MS + 2000 }))[0];
  try {
    await q('SET SESSION TRANSACTION READ ONLY');
    const [version] = await q<RowDataPacket>('SELECT VERSION() AS v');
    const mariadb = /mariadb/i.test(String(version?.v ?? ''));
    await q(
      mariadb
        ? `SET SESSION max_statement_time = ${STATEMENT_TIMEOUT_MS / 1000}`
        : `SET SESSION max_execution_time = ${STATEMENT_TIMEOUT_MS}`,
    );
  } catch (err) {
    await conn.end().catch(() => undefined);
    throw err;
  }
  const readOnly = async <T>(fn: () => Promise<T>): Promise<T> => {
    await q('START TRANSACTION READ ONLY');
    try {
      return await fn();
    } finally {
      await q('ROLLBACK').catch(() => undefined);
    }
  };
  const objects = async () =>
    (await readOnly(() => q<RowDataPacket>(OBJECTS_SQL))).map((r) => ({
      name: String(r.name),
      kind: String(r.type).includes('VIEW') ? ('view' as const) : ('table' as const),
    }));

  return {
    async ping() {
      await readOnly(() => q('select 1'));
    },
    listObjects: objects,
    async describe(name): Promise<SourceColumn[] | null> {
      if (!(await objects()).some((o) => o.name === name)) return null;
      const rows = await readOnly(() => q<RowDataPacket>(COLUMNS_SQL, [name]));
      return rows.map((r) => ({ name: String(r.name), type: String(r.type), nullable: r.nullable === 'YES' }));
    },
    async read(plan: ReadPlan) {
      const { sql, values } = buildSelect(mysqlDialect, mysqlDialect.quote(plan.object), plan);
      // rows one by one into a byte budget, as the PostgreSQL driver does (postgres.ts)
      const budget = new RowBudget(target.maxReadBytes, plan.limit);
      onCut = () => budget.cut();
      const core = (conn as unknown as { connection: CoreConnection }).connection;
      await readOnly(
        () =>
          new Promise<void>((resolve, reject) => {
            const query = core.query({ sql, values, rowsAsArray: true, timeout: STATEMENT_TIMEOUT_MS + 2000 });
            query.on('result', (row) => {
              if (!budget.take(row as unknown as unknown[]) && budget.spent) socket.destroy();
            });
            query.on('end', () => resolve());
            query.on('error', (err) => (budget.spent ? resolve() : reject(err)));
            meter.arm();
          }),
      ).finally(() => meter.disarm());
      return {
        columns: plan.columns,
        rows: budget.rows.map((row) => {
          const out: Record<string, unknown> = {};
          plan.columns.forEach((c, i) => (out[c] = jsonValue(row[i])));
          return out;
        }),
        truncated: budget.truncated,
      };
    },
    close: async () => {
      if (socket.destroyed) conn.destroy();
      else await conn.end().catch(() => undefined);
    },
  };
}
