import { defineConfig } from '@mikro-orm/postgresql';
import { entities } from './entities';

/**
 * The ORM options for a database URL; shared by the API, the worker, the CLI and the tests. Without the
 * migrations: the processes that apply them add them (db/migrator.ts), so the API and the worker do not load
 * the migration runner and every migration at each start.
 */
export function ormOptions(databaseUrl: string, poolMax = 20) {
  return defineConfig({
    clientUrl: databaseUrl,
    entities,
    // Tables without an entity, read and written with SQL of their own (the run event log, the
    // rate-limit counters, the idempotency keys): the schema diff leaves them alone instead of
    // proposing to drop them.
    schemaGenerator: { skipTables: ['run_events', 'rate_limit_buckets', 'idempotency_keys'] },
    pool: { min: 0, max: poolMax },
    // Requests use a request-scoped fork (RequestContext); nothing may write through the global EM.
    allowGlobalContext: false,
    // Fail fast when the database is unreachable instead of queueing requests for a minute.
    driverOptions: { connection: { connectionTimeoutMillis: 3000 } },
    debug: false,
  });
}
