import { defineConfig, MikroORM } from '@mikro-orm/postgresql';
import { ormOptions } from './config';
import { migrationsList } from './migrations';

/**
 * The ORM options with the committed migrations, for what applies or checks them: `npm run migrate`, the
 * `mikro-orm` CLI and the schema test. Schema changes happen only through these (never schema.update()).
 */
export function migrationOptions(databaseUrl: string, poolMax?: number) {
  return defineConfig({
    ...ormOptions(databaseUrl, poolMax),
    migrations: { migrationsList, transactional: true, allOrNothing: true },
  });
}

/** An ORM that can migrate (`orm.getMigrator()`); the API and the worker use `initOrm` (db/orm.ts). */
export async function initMigratingOrm(databaseUrl: string, poolMax?: number): Promise<MikroORM> {
  return MikroORM.init({ ...migrationOptions(databaseUrl, poolMax), connect: false });
}
