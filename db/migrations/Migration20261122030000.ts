import { Migration } from '@mikro-orm/migrations';

/** Webhook subscriptions and their delivery log (docs/api/webhooks.md). */
export class Migration20261122030000 extends Migration {
  override async up(): Promise<void> {
    this
      .addSql(`create table "webhook_subscriptions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "url" text not null, "events" text[] not null, "secret" text not null, "status" varchar(16) not null,
      "deleted_at" timestamptz null, constraint "webhook_subscriptions_pkey" primary key ("id"));`);
    // Fan-out reads the live subscriptions of a workspace on every announced status change.
    this.addSql(
      `create index "webhook_subscriptions_live_index" on "webhook_subscriptions" ("workspace_id") where "deleted_at" is null;`,
    );

    this
      .addSql(`create table "webhook_deliveries" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "subscription_id" uuid not null references "webhook_subscriptions" ("id") on delete cascade,
      "workspace_id" uuid not null, "run_id" uuid not null, "type" varchar(32) not null, "event_key" varchar(64) not null,
      "body" text not null, "status" varchar(16) not null, "attempts" jsonb not null default '[]', "round" int not null default 0,
      constraint "webhook_deliveries_pkey" primary key ("id"));`);
    // One delivery per (subscription, event): a retried fan-out never sends an event twice.
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_event_unique" unique ("subscription_id", "run_id", "type", "event_key");`,
    );
    this.addSql(
      `create index "webhook_deliveries_subscription_created_index" on "webhook_deliveries" ("subscription_id", "created_at" desc, "id" desc);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "webhook_deliveries" cascade;');
    this.addSql('drop table if exists "webhook_subscriptions" cascade;');
  }
}
