import { Migration } from '@mikro-orm/migrations';

/**
 * The deliveries of one event by run, type and event key: a fan-out looks them up on every try
 * (domain/webhooks/dispatch.ts, recordRunTargets) and the unique index leads with the subscription, so
 * without this the look-up read the whole table, longer with every delivery ever made.
 */
export class Migration20261125040000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "webhook_deliveries_run_index" on "webhook_deliveries" ("run_id", "type", "event_key");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "webhook_deliveries_run_index";`);
  }
}
