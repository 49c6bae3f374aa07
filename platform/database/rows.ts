import type { AbstractSqlConnection } from '@mikro-orm/postgresql';

/** A statement as `pg` takes it: a named one is parsed and planned once per connection. */
export interface PgStatement {
  name?: string;
  text: string;
  values: unknown[];
}

interface PgClient {
  query(statement: PgStatement): Promise<{ rows: unknown[] }>;
}

interface KnexClient {
  acquireConnection(): Promise<PgClient>;
  releaseConnection(connection: PgClient): Promise<void>;
  emit(event: 'query', query: { method: string; sql: string; bindings: unknown[] }): boolean;
}

/**
 * The rows of one parameterized statement (`$1`, `$2`…), run by `pg` itself on a connection of the ORM's
 * pool (the same pool, its size and its checks), past MikroORM's and knex's query layers: no query
 * formatting, no logger, no result wrapping. For the hot paths only (`GET /v1/runs/{id}`, the statement
 * that admits a run; bench/README.md, cases 1 and 4): they cost the API more CPU in those layers than in
 * the statement. Outside any transaction, by design. Driver errors arrive as `pg` raises them
 * (platform/database/availability.ts tells outages apart); knex's `query` event still fires, so statement
 * counts (bench/statementProbe.ts) see the statement.
 */
export async function pooledRows<T>(db: AbstractSqlConnection, statement: PgStatement): Promise<T[]> {
  const client = (db.getKnex() as unknown as { client: KnexClient }).client;
  const connection = await client.acquireConnection();
  try {
    client.emit('query', { method: 'raw', sql: statement.text, bindings: statement.values });
    const result = await connection.query(statement);
    return result.rows as T[];
  } finally {
    void client.releaseConnection(connection);
  }
}

/** {@link pooledRows} of an unnamed statement. */
export function selectRows<T>(db: AbstractSqlConnection, text: string, values: unknown[]): Promise<T[]> {
  return pooledRows<T>(db, { text, values });
}
