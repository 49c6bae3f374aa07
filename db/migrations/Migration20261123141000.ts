import { Migration } from '@mikro-orm/migrations';

/**
 * An event's body is stored once, in webhook_events, whatever the number of subscribers; deliveries
 * reference it. Deliveries recorded before keep their own `body` (now nullable), so they are redelivered
 * byte-identical. `slot_until` marks a delivery holding one of its workspace's delivery slots
 * (docs/api/webhooks.md).
 */
export class Migration20261123141000 extends Migration {
  override async up(): Promise<void> {
    this
      .addSql(`create table "webhook_events" ("id" uuid not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "run_id" uuid not null, "type" varchar(32) not null, "event_key" varchar(64) not null, "body" text not null,
      constraint "webhook_events_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "webhook_events" add constraint "webhook_events_event_unique" unique ("run_id", "type", "event_key");`,
    );
    this.addSql(`alter table "webhook_deliveries" add column "event_id" uuid null
      constraint "webhook_deliveries_event_id_fkey" references "webhook_events" ("id") on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" alter column "body" drop not null;`);
    this.addSql(`alter table "webhook_deliveries" add column "slot_until" timestamptz null;`);
    this.addSql(
      `create index "webhook_deliveries_slot_index" on "webhook_deliveries" ("workspace_id", "slot_until") where "slot_until" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "webhook_deliveries_slot_index";`);
    this.addSql(`alter table "webhook_deliveries" drop column "slot_until";`);
    // Newer deliveries get their event's body back before the events go.
    this.addSql(
      `update "webhook_deliveries" d set "body" = e."body" from "webhook_events" e where d."event_id" = e."id";`,
    );
    this.addSql(`alter table "webhook_deliveries" alter column "body" set not null;`);
    this.addSql(`alter table "webhook_deliveries" drop column "event_id";`);
    this.addSql('drop table if exists "webhook_events" cascade;');
  }
}
