import { Migration } from '@mikro-orm/migrations';

/**
 * Price lists and their pricing rules (docs/api/pricing.md): what a workspace charges its own customers.
 * Money is integer micro-USD, a markup parts per million of the service's cost. At most one default list
 * per workspace (a partial unique index).
 */
export class Migration20261123160100 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "price_lists" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "name" varchar(255) not null,
      "is_default" boolean not null default false,
      constraint "price_lists_pkey" primary key ("id"));`);
    this.addSql(
      `create index "price_lists_workspace_id_created_at_index" on "price_lists" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create unique index "price_lists_one_default_unique" on "price_lists" ("workspace_id") where "is_default";`,
    );
    this.addSql(`create table "pricing_rules" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "price_list_id" uuid not null references "price_lists" ("id") on update cascade on delete cascade,
      "match_agent_id" uuid null,
      "match_model_id" varchar(255) null,
      "match_app_id" uuid null,
      "per_run_micros" bigint null,
      "input_per_mtok_micros" bigint null,
      "output_per_mtok_micros" bigint null,
      "markup_ppm" bigint null,
      "priority" int not null,
      constraint "pricing_rules_pkey" primary key ("id"));`);
    this.addSql(
      `create index "pricing_rules_price_list_id_created_at_index" on "pricing_rules" ("price_list_id", "created_at" desc, "id" desc);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "pricing_rules" cascade;`);
    this.addSql(`drop table if exists "price_lists" cascade;`);
  }
}
