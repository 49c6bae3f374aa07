import { Migration } from '@mikro-orm/migrations';

/**
 * Published apps and their custom domains (docs/api/apps.md). Slugs and hostnames are unique across every
 * workspace: `/apps/<slug>` and a `Host` header each name one app. A run started through an app's public
 * page has a token row, which ties it to the app for its status page and the app's usage report.
 */
export class Migration20261123184000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "apps" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "agent_id" uuid not null references "agents" ("id") on update cascade on delete cascade,
      "name" varchar(255) not null,
      "slug" varchar(63) not null,
      "description" text null,
      "status" varchar(16) not null default 'draft',
      "form" jsonb not null,
      "price_list_id" uuid null references "price_lists" ("id") on update cascade on delete set null,
      constraint "apps_pkey" primary key ("id"));`);
    this.addSql(`alter table "apps" add constraint "apps_slug_unique" unique ("slug");`);
    this.addSql(`create index "apps_agent_id_index" on "apps" ("agent_id");`);
    this.addSql(`create index "apps_price_list_id_index" on "apps" ("price_list_id");`);
    this.addSql(
      `create index "apps_workspace_id_created_at_index" on "apps" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(`create table "app_domains" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "app_id" uuid not null references "apps" ("id") on update cascade on delete cascade,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "hostname" varchar(253) not null,
      "verification_value" varchar(100) not null,
      "status" varchar(16) not null default 'pending',
      "verified_at" timestamptz null,
      constraint "app_domains_pkey" primary key ("id"));`);
    this.addSql(`alter table "app_domains" add constraint "app_domains_hostname_unique" unique ("hostname");`);
    this.addSql(`create index "app_domains_app_id_index" on "app_domains" ("app_id");`);
    this.addSql(`create index "app_domains_workspace_id_index" on "app_domains" ("workspace_id");`);
    this.addSql(`create table "app_run_tokens" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "run_id" uuid not null references "runs" ("id") on update cascade on delete cascade,
      "app_id" uuid not null references "apps" ("id") on update cascade on delete cascade,
      "token_hash" varchar(64) not null,
      constraint "app_run_tokens_pkey" primary key ("id"));`);
    this.addSql(`alter table "app_run_tokens" add constraint "app_run_tokens_run_id_unique" unique ("run_id");`);
    this.addSql(`create index "app_run_tokens_app_id_index" on "app_run_tokens" ("app_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "app_run_tokens" cascade;`);
    this.addSql(`drop table if exists "app_domains" cascade;`);
    this.addSql(`drop table if exists "apps" cascade;`);
  }
}
