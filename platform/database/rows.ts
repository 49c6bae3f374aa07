import type { AbstractSqlConnection } from '@mikro-orm/postgresql';

interface PgClient {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

interface KnexClient {
  acquireConnection(): Promise<PgClient>;
  releaseConnection(connection: PgClient): Promise<void>;
  emit(event: 'query', query: { method: string; sql: string; bindings: unknown[] }): boolean;
}

/**
 * The rows of one parameterized statement, run by `pg` itself on a connection of the ORM's pool (the same
 * pool, its size and its checks), past MikroORM's and knex's query layers: no query formatting, no logger,
 * no result wrapping. For the hot reads only (`GET /v1/runs/{id}`, bench/README.md, case 4): they cost the
 * API more CPU in those layers than in the statement. Outside any transaction, by design. Driver errors
 * arrive as `pg` raises them (platform/database/availability.ts tells outages apart); knex's `query` event
 * still fires, so statement counts (bench/statementProbe.ts) see the statement.
 */
export async function selectRows<T>(db: AbstractSqlConnection, sql: string, values: unknown[]): Promise<T[]> {
  const client = (db.getKnex() as unknown as { client: KnexClient }).client;
  const connection = await client.acquireConnection();
  try {
    client.emit('query', { method: 'raw', sql, bindings: values });
    const result = await connection.query(sql, values);
    return result.rows as T[];
  } finally {
    void client.releaseConnection(connection);
  }
}
