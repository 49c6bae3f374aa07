/**
 * The entity schemas (db/entities) describe the database the migrations (db/migrations) build: column
 * types and lengths, defaults, indexes, unique constraints and foreign keys. `npm test` migrates its
 * database before jest starts, so the schema diff MikroORM computes from the entities against that
 * database must be empty. When this fails, either declare in the entity what the migration made, or
 * add a migration for what the entity says.
 */
import { loadConfig } from '../../platform/config';
import { initMigratingOrm } from '../../db/migrator';
import type { Orm } from '../../db/orm';

let orm: Orm;

beforeAll(async () => {
  orm = await initMigratingOrm(loadConfig().databaseUrl, 1);
});

afterAll(async () => {
  await orm.close(true);
});

it('the entities match the migrated database (no schema drift)', async () => {
  const migrator = orm.getMigrator();
  expect((await migrator.getPendingMigrations()).map((m) => m.name)).toEqual([]);

  const drift = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true });
  // printed as the statements that would bring the database to the entities
  expect(drift.trim()).toBe('');
});
