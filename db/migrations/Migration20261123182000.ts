import { Migration } from '@mikro-orm/migrations';

/**
 * Save-output connections and their delivery log (docs/api/output-connections.md), and shared run
 * dashboards (docs/api/runs.md#sharing-a-run), whose tokens are kept as SHA-256 only.
 */
export class Migration20261123182000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "output_connections" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "name" varchar(200) not null,
      "type" varchar(16) not null,
      "url" text null,
      "secret" text null,
      "saved_table_id" uuid null,
      "deleted_at" timestamptz null,
      constraint "output_connections_pkey" primary key ("id"));`);
    this.addSql(
      `create index "output_connections_workspace_created_index" on "output_connections" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(`create table "output_deliveries" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "connection_id" uuid not null references "output_connections" ("id") on update no action on delete cascade,
      "workspace_id" uuid not null,
      "source_key" varchar(255) not null,
      "run_id" uuid null,
      "flow_run_id" uuid null,
      "body" text not null,
      "status" varchar(16) not null,
      "attempts" jsonb not null default '[]',
      constraint "output_deliveries_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "output_deliveries" add constraint "output_deliveries_source_unique" unique ("connection_id", "source_key");`,
    );
    this.addSql(
      `create index "output_deliveries_connection_created_index" on "output_deliveries" ("connection_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(`create table "run_shares" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "run_id" uuid not null references "runs" ("id") on update no action on delete cascade,
      "token_hash" varchar(64) not null,
      constraint "run_shares_pkey" primary key ("id"));`);
    this.addSql(`alter table "run_shares" add constraint "run_shares_run_id_unique" unique ("run_id");`);
    this.addSql(`alter table "run_shares" add constraint "run_shares_token_hash_unique" unique ("token_hash");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "run_shares" cascade;`);
    this.addSql(`drop table if exists "output_deliveries" cascade;`);
    this.addSql(`drop table if exists "output_connections" cascade;`);
  }
}
