import { Migration } from '@mikro-orm/migrations';

/**
 * Phone numbers, calls and the booking calendar (docs/api/phone.md). A number's credentials and webhook
 * secret are sealed (platform/secrets.ts); a removed number is kept (`deleted_at`) so its calls stay
 * readable, and its e164 is free again. A slot is booked at most once: (workspace, start) is unique.
 */
export class Migration20261124120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "phone_numbers" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "agent_id" uuid not null references "agents" ("id") on update cascade on delete cascade,
      "e164" varchar(32) not null,
      "provider" varchar(16) not null,
      "credentials" text not null,
      "webhook_secret" text not null,
      "deleted_at" timestamptz null,
      constraint "phone_numbers_pkey" primary key ("id"));`);
    this.addSql(
      `create index "phone_numbers_workspace_id_created_at_index" on "phone_numbers" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create unique index "phone_numbers_e164_unique" on "phone_numbers" ("e164") where "deleted_at" is null;`,
    );
    this.addSql(`create table "phone_calls" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "number_id" uuid not null references "phone_numbers" ("id") on update cascade on delete cascade,
      "direction" varchar(16) not null,
      "from_number" varchar(64) not null,
      "to_number" varchar(64) not null,
      "status" varchar(16) not null,
      "purpose" text null,
      "provider_call_sid" varchar(64) null,
      "conversation_id" uuid null,
      "duration_sec" int null,
      "error" text null,
      "started_at" timestamptz null,
      "ended_at" timestamptz null,
      constraint "phone_calls_pkey" primary key ("id"));`);
    this.addSql(
      `create index "phone_calls_workspace_id_created_at_index" on "phone_calls" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create index "phone_calls_number_id_created_at_index" on "phone_calls" ("number_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create unique index "phone_calls_number_sid_unique" on "phone_calls" ("number_id", "provider_call_sid") where "provider_call_sid" is not null;`,
    );
    this.addSql(`create table "phone_calendars" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "timezone" varchar(64) not null,
      "weekly_hours" jsonb not null,
      "slot_minutes" int not null,
      constraint "phone_calendars_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "phone_calendars" add constraint "phone_calendars_workspace_id_unique" unique ("workspace_id");`,
    );
    this.addSql(`create table "phone_bookings" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "start_at" timestamptz not null,
      "end_at" timestamptz not null,
      "name" text null,
      "phone" varchar(64) null,
      "call_id" uuid null,
      "run_id" uuid null,
      constraint "phone_bookings_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "phone_bookings" add constraint "phone_bookings_workspace_id_start_at_unique" unique ("workspace_id", "start_at");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "phone_bookings" cascade;`);
    this.addSql(`drop table if exists "phone_calendars" cascade;`);
    this.addSql(`drop table if exists "phone_calls" cascade;`);
    this.addSql(`drop table if exists "phone_numbers" cascade;`);
  }
}
