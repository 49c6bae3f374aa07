import { Migration } from '@mikro-orm/migrations';

/** Identity and access: users, workspaces, memberships, sessions, API keys, the credit ledger, rate limits. */
export class Migration20261122000000 extends Migration {
  override async up(): Promise<void> {
    this
      .addSql(`create table "users" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "email" varchar(255) not null, "password_hash" varchar(255) not null, "name" varchar(255) null,
      "email_verified_at" timestamptz null, "email_verify_token_hash" varchar(255) null,
      constraint "users_pkey" primary key ("id"));`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);
    this.addSql(`create index "users_email_verify_token_hash_index" on "users" ("email_verify_token_hash");`);

    this
      .addSql(`create table "workspaces" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "name" varchar(255) not null, "plan" varchar(255) not null, "credit_balance_micros" bigint not null,
      constraint "workspaces_pkey" primary key ("id"));`);

    this
      .addSql(`create table "memberships" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "user_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "role" varchar(255) not null, constraint "memberships_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "memberships" add constraint "memberships_user_id_workspace_id_unique" unique ("user_id", "workspace_id");`,
    );
    this.addSql(`create index "memberships_workspace_id_index" on "memberships" ("workspace_id");`);

    this
      .addSql(`create table "sessions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "user_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "token_hash" varchar(255) not null, "expires_at" timestamptz not null, constraint "sessions_pkey" primary key ("id"));`);
    this.addSql(`alter table "sessions" add constraint "sessions_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id");`);

    this
      .addSql(`create table "api_keys" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "name" varchar(255) not null, "scopes" text[] not null, "key_hash" varchar(255) not null, "prefix" varchar(255) not null,
      "monthly_spend_cap_micros" bigint null, "revoked_at" timestamptz null, "last_used_at" timestamptz null,
      constraint "api_keys_pkey" primary key ("id"));`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_key_hash_unique" unique ("key_hash");`);
    this.addSql(`create index "api_keys_workspace_id_created_at_index" on "api_keys" ("workspace_id", "created_at");`);

    this
      .addSql(`create table "ledger_entries" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "kind" varchar(255) not null, "amount_micros" bigint not null, "description" varchar(255) not null,
      "api_key_id" uuid null, "run_id" uuid null, constraint "ledger_entries_pkey" primary key ("id"));`);
    // One charge per run at most: a retried activity can never bill a run twice.
    this.addSql(`alter table "ledger_entries" add constraint "ledger_entries_run_id_unique" unique ("run_id");`);
    this.addSql(
      `create index "ledger_entries_api_key_id_created_at_index" on "ledger_entries" ("api_key_id", "created_at");`,
    );
    this.addSql(
      `create index "ledger_entries_workspace_id_created_at_index" on "ledger_entries" ("workspace_id", "created_at");`,
    );

    // Fixed-window counters shared by every API replica. UNLOGGED: losing the current
    // minute's counts in a crash is harmless, and skipping the WAL keeps the per-request upsert cheap.
    this
      .addSql(`create unlogged table "rate_limit_buckets" ("bucket" text not null, "window_start" timestamptz not null,
      "count" integer not null, constraint "rate_limit_buckets_pkey" primary key ("bucket", "window_start"));`);
  }

  override async down(): Promise<void> {
    for (const t of [
      'rate_limit_buckets',
      'ledger_entries',
      'api_keys',
      'sessions',
      'memberships',
      'workspaces',
      'users',
    ]) {
      this.addSql(`drop table if exists "${t}" cascade;`);
    }
  }
}
