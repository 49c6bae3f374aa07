import { Migration } from '@mikro-orm/migrations';

/** The tables of every entity (db/entities, BaseEntity's `created_at`). */
const TABLES = [
  'agents',
  'agent_versions',
  'api_keys',
  'feedback',
  'files',
  'folders',
  'ledger_entries',
  'memberships',
  'runs',
  'run_steps',
  'sessions',
  'users',
  'webhook_subscriptions',
  'webhook_deliveries',
  'workspaces',
];

/**
 * Keyset cursors carry `created_at` in milliseconds (a JavaScript Date). A row stamped by the database
 * (`now()`, microseconds) compares unequal to its own cursor, and rows of the same millisecond after it
 * were skipped by the next page. Storing milliseconds makes every writer agree with the cursor; every
 * entity table gets it, so the entities' one `created_at` column type (BaseEntity) holds everywhere.
 */
export class Migration20261122050000 extends Migration {
  override async up(): Promise<void> {
    for (const table of TABLES) {
      this.addSql(`alter table "${table}" alter column "created_at" type timestamptz(3);`);
    }
  }

  override async down(): Promise<void> {
    for (const table of TABLES) {
      this.addSql(`alter table "${table}" alter column "created_at" type timestamptz;`);
    }
  }
}
