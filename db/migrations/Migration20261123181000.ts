import { Migration } from '@mikro-orm/migrations';

/**
 * Flows and their runs (docs/api/flows.md). A flow run keeps the steps it was made with (`definition`)
 * and the read model of each step (`steps`); deleting a flow deletes its runs, deleting its project
 * leaves it without one.
 */
export class Migration20261123181000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "flows" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "project_id" uuid null references "projects" ("id") on update cascade on delete set null,
      "name" varchar(255) not null,
      "description" text null,
      "status" varchar(16) not null,
      "trigger" jsonb not null,
      "steps" jsonb not null,
      "webhook_token_hash" varchar(64) null,
      constraint "flows_pkey" primary key ("id"));`);
    this.addSql(`alter table "flows" add constraint "flows_webhook_token_hash_unique" unique ("webhook_token_hash");`);
    this.addSql(
      `create index "flows_workspace_id_created_at_index" on "flows" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create index "flows_project_id_created_at_index" on "flows" ("project_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(`create table "flow_runs" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "flow_id" uuid not null references "flows" ("id") on update cascade on delete cascade,
      "status" varchar(32) not null,
      "trigger" jsonb not null,
      "definition" jsonb not null,
      "steps" jsonb not null,
      "error" jsonb null,
      "pending_approval" jsonb null,
      "answered_action_id" varchar(64) null,
      "completed_at" timestamptz null,
      "trigger_key" varchar(255) null,
      constraint "flow_runs_pkey" primary key ("id"));`);
    this.addSql(`alter table "flow_runs" add constraint "flow_runs_trigger_key_unique" unique ("trigger_key");`);
    this.addSql(`create index "flow_runs_workspace_id_index" on "flow_runs" ("workspace_id");`);
    this.addSql(
      `create index "flow_runs_flow_id_created_at_index" on "flow_runs" ("flow_id", "created_at" desc, "id" desc);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "flow_runs" cascade;`);
    this.addSql(`drop table if exists "flows" cascade;`);
  }
}
