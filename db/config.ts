import { defineConfig } from '@mikro-orm/postgresql';
import { entities } from './entities';
import { migrationsList } from './migrations';

/** The ORM options for a database URL; shared by the API, the worker, the CLI and the tests. */
export function ormOptions(databaseUrl: string, poolMax = 20) {
  return defineConfig({
    clientUrl: databaseUrl,
    entities,
    // Schema changes happen only through the committed migrations below (never schema.update()).
    migrations: { migrationsList, transactional: true, allOrNothing: true },
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
