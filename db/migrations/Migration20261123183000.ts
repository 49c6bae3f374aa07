import { Migration } from '@mikro-orm/migrations';

/**
 * Data sources (docs/api/data-sources.md): databases read read-only and uploaded CSV/XLSX sheets. The
 * password of a database source is stored sealed (AES-256-GCM, platform/secrets.ts) in `secret`.
 */
export class Migration20261123183000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "data_sources" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "name" varchar(255) not null,
      "type" varchar(16) not null,
      "status" varchar(16) not null default 'untested',
      "config" jsonb not null,
      "secret" text null,
      constraint "data_sources_pkey" primary key ("id"));`);
    this.addSql(
      `create index "data_sources_workspace_id_created_at_index" on "data_sources" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(`create table "data_source_sheets" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "data_source_id" uuid not null references "data_sources" ("id") on update cascade on delete cascade,
      "name" varchar(255) not null,
      "filename" varchar(255) not null,
      "columns" jsonb not null,
      "rows" jsonb not null,
      constraint "data_source_sheets_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "data_source_sheets" add constraint "data_source_sheets_data_source_id_name_unique" unique ("data_source_id", "name");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "data_source_sheets" cascade;`);
    this.addSql(`drop table if exists "data_sources" cascade;`);
  }
}
