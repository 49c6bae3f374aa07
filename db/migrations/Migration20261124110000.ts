import { Migration } from '@mikro-orm/migrations';

/**
 * Finance (docs/api/finance.md): categories, rules, imports of bank exports, transactions with exact
 * amounts (signed bigint micro-units) unique per workspace by fingerprint so that overlapping exports never
 * duplicate a row, and the finance runs (reconciliation, report) keyed by their run id.
 */
export class Migration20261124110000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "finance_runs" ("id" uuid not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz not null, "workspace_id" uuid not null, "run_id" uuid not null, "kind" varchar(16) not null, "params" jsonb not null, "proposals" jsonb not null, constraint "finance_runs_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "finance_runs" add constraint "finance_runs_run_id_unique" unique ("run_id");`);
    this.addSql(
      `create index "finance_runs_workspace_id_created_at_index" on "finance_runs" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create table "finance_imports" ("id" uuid not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz not null, "workspace_id" uuid not null, "file_id" uuid not null, "format" varchar(8) not null, "account" varchar(200) not null, "status" varchar(16) not null default 'completed', "rows" int not null, "imported" int not null, "duplicates" int not null, "errors" jsonb not null, constraint "finance_imports_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "finance_imports_workspace_id_created_at_index" on "finance_imports" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create table "finance_categories" ("id" uuid not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz not null, "workspace_id" uuid not null, "name" varchar(100) not null, "kind" varchar(16) not null, "is_default" boolean not null default false, constraint "finance_categories_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "finance_categories_workspace_id_created_at_index" on "finance_categories" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `alter table "finance_categories" add constraint "finance_categories_workspace_id_name_unique" unique ("workspace_id", "name");`,
    );
    this.addSql(
      `create table "finance_transactions" ("id" uuid not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz not null, "workspace_id" uuid not null, "import_id" uuid not null, "category_id" uuid null, "category_manual" boolean not null default false, "account" varchar(200) not null, "date" date not null, "description" varchar(1000) not null, "amount_micros" bigint not null, "currency" varchar(3) not null, "counterparty" varchar(200) null, "note" text null, "bank_id" varchar(255) null, "fingerprint" varchar(64) not null, "reconciled" boolean not null default false, "reconciled_file_id" uuid null, constraint "finance_transactions_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "finance_transactions_import_id_index" on "finance_transactions" ("import_id");`);
    this.addSql(`create index "finance_transactions_category_id_index" on "finance_transactions" ("category_id");`);
    this.addSql(
      `create index "finance_transactions_workspace_id_created_at_index" on "finance_transactions" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create index "finance_transactions_workspace_id_date_index" on "finance_transactions" ("workspace_id", "date");`,
    );
    this.addSql(
      `alter table "finance_transactions" add constraint "finance_transactions_workspace_id_fingerprint_unique" unique ("workspace_id", "fingerprint");`,
    );
    this.addSql(
      `create table "finance_rules" ("id" uuid not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz not null, "workspace_id" uuid not null, "category_id" uuid not null, "priority" int not null, "description_contains" varchar(200) null, "description_regex" varchar(500) null, "amount_min_micros" bigint null, "amount_max_micros" bigint null, constraint "finance_rules_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "finance_rules_category_id_index" on "finance_rules" ("category_id");`);
    this.addSql(
      `create index "finance_rules_workspace_id_created_at_index" on "finance_rules" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `alter table "finance_runs" add constraint "finance_runs_workspace_id_fkey" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "finance_imports" add constraint "finance_imports_workspace_id_fkey" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "finance_categories" add constraint "finance_categories_workspace_id_fkey" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "finance_transactions" add constraint "finance_transactions_workspace_id_fkey" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "finance_transactions" add constraint "finance_transactions_import_id_fkey" foreign key ("import_id") references "finance_imports" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "finance_transactions" add constraint "finance_transactions_category_id_fkey" foreign key ("category_id") references "finance_categories" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "finance_rules" add constraint "finance_rules_workspace_id_fkey" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "finance_rules" add constraint "finance_rules_category_id_fkey" foreign key ("category_id") references "finance_categories" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "finance_runs" cascade;`);
    this.addSql(`drop table if exists "finance_rules" cascade;`);
    this.addSql(`drop table if exists "finance_transactions" cascade;`);
    this.addSql(`drop table if exists "finance_imports" cascade;`);
    this.addSql(`drop table if exists "finance_categories" cascade;`);
  }
}
