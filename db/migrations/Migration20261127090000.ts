import { Migration } from '@mikro-orm/migrations';

/**
 * One index of a delivery's event instead of two: the unique constraint (one delivery per subscription and
 * event) now leads with the event, run, type and event key, so it also serves the look-up of an event's
 * deliveries (domain/webhooks/dispatch.ts, recordRunTargets), for which a second index had been added.
 * Every delivery a fan-out records, and every attempt log written to it, wrote an entry in both; a
 * fan-out to 100 subscribers records 100 rows before its first attempt goes out.
 */
export class Migration20261127090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_event_unique";`);
    this.addSql(`drop index if exists "webhook_deliveries_run_index";`);
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_event_unique" unique ("run_id", "type", "event_key", "subscription_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_event_unique";`);
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_event_unique" unique ("subscription_id", "run_id", "type", "event_key");`,
    );
    this.addSql(`create index "webhook_deliveries_run_index" on "webhook_deliveries" ("run_id", "type", "event_key");`);
  }
}
