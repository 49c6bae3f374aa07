import { Migration } from '@mikro-orm/migrations';

/**
 * Saved tables and their materialised rows (docs/api/data-sources.md), and the saved tables an agent
 * may read (`agents.saved_table_ids`). Rows are jsonb, keyed by their position in the last refresh.
 */
export class Migration20261123183100 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "saved_tables" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "data_source_id" uuid not null references "data_sources" ("id") on update cascade on delete cascade,
      "name" varchar(255) not null,
      "read" jsonb not null,
      "cron" varchar(255) null,
      "status" varchar(16) not null default 'pending',
      "error" text null,
      "row_count" int not null default 0,
      "columns" jsonb not null,
      "refreshed_at" timestamptz null,
      constraint "saved_tables_pkey" primary key ("id"));`);
    this.addSql(
      `create index "saved_tables_workspace_id_created_at_index" on "saved_tables" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(`create index "saved_tables_data_source_id_index" on "saved_tables" ("data_source_id");`);
    this.addSql(`create table "saved_table_rows" (
      "saved_table_id" uuid not null references "saved_tables" ("id") on update cascade on delete cascade,
      "position" int not null,
      "data" jsonb not null,
      constraint "saved_table_rows_pkey" primary key ("saved_table_id", "position"));`);
    this.addSql(`alter table "agents" add column "saved_table_ids" text[] not null default '{}';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "agents" drop column if exists "saved_table_ids";`);
    this.addSql(`drop table if exists "saved_table_rows" cascade;`);
    this.addSql(`drop table if exists "saved_tables" cascade;`);
  }
}
