import { Migration } from '@mikro-orm/migrations';

/**
 * The transactional outbox (docs/architecture.md): the Temporal calls that committed changes owe.
 * The runs' `announce_pending` mark becomes an outbox row each (an `announce_run` call), then goes.
 */
export class Migration20261123100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "outbox" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "kind" varchar(32) not null,
      "call" jsonb not null,
      "run_id" uuid null,
      "dedupe_key" varchar(255) null,
      "lease_until" timestamptz null,
      "done_at" timestamptz null,
      "attempts" int not null default 0,
      "last_error" text null,
      constraint "outbox_pkey" primary key ("id"));`);
    this.addSql(`create index "outbox_run_id_index" on "outbox" ("run_id");`);
    this.addSql(`alter table "outbox" add constraint "outbox_dedupe_key_unique" unique ("dedupe_key");`);
    this.addSql(`create index "outbox_pending_index" on "outbox" ("created_at") where "done_at" is null;`);
    this.addSql(`insert into "outbox" ("id", "created_at", "updated_at", "kind", "call", "run_id")
      select gen_random_uuid(), now(), now(), 'announce_run',
        jsonb_build_object('kind', 'announce_run', 'run', jsonb_build_object(
          'id', "id", 'workspaceId', "workspace_id", 'status', "status", 'output', coalesce("output", 'null'::jsonb),
          'error', coalesce("error", 'null'::jsonb), 'pendingAction', coalesce("pending_action", 'null'::jsonb))),
        "id"
      from "runs" where "announce_pending";`);
    this.addSql(`drop index if exists "runs_announce_pending_index";`);
    this.addSql(`alter table "runs" drop column "announce_pending";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "runs" add column "announce_pending" boolean not null default false;`);
    this.addSql(`create index "runs_announce_pending_index" on "runs" ("created_at") where "announce_pending";`);
    this.addSql(`update "runs" set "announce_pending" = true where "id" in
      (select "run_id" from "outbox" where "kind" = 'announce_run' and "done_at" is null);`);
    this.addSql(`drop table if exists "outbox";`);
  }
}
