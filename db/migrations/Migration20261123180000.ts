import { Migration } from '@mikro-orm/migrations';

/**
 * Evals, their runs and one result row per case (docs/api/evals.md). A result row is inserted with its
 * case's run, and (eval_run_id, case_index) is unique: a retried activity finds that run instead of
 * creating and charging another.
 */
export class Migration20261123180000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "evals" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "agent_id" uuid not null references "agents" ("id") on update cascade on delete cascade,
      "name" varchar(255) not null,
      "cases" jsonb not null,
      constraint "evals_pkey" primary key ("id"));`);
    this.addSql(
      `create index "evals_agent_id_created_at_index" on "evals" ("agent_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(`create table "eval_runs" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "eval_id" uuid not null references "evals" ("id") on update cascade on delete cascade,
      "agent_id" uuid not null,
      "agent_version" int not null,
      "status" varchar(16) not null,
      "total" int not null,
      "passed" int not null,
      "score" double precision null,
      "api_key_id" uuid null,
      "user_id" uuid null,
      "completed_at" timestamptz null,
      constraint "eval_runs_pkey" primary key ("id"));`);
    this.addSql(
      `create index "eval_runs_eval_id_created_at_index" on "eval_runs" ("eval_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(`create table "eval_results" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "eval_run_id" uuid not null references "eval_runs" ("id") on update cascade on delete cascade,
      "case_index" int not null,
      "run_id" uuid null,
      "passed" boolean null,
      "score" double precision null,
      "detail" text null,
      constraint "eval_results_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "eval_results" add constraint "eval_results_eval_run_id_case_index_unique" unique ("eval_run_id", "case_index");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "eval_results" cascade;`);
    this.addSql(`drop table if exists "eval_runs" cascade;`);
    this.addSql(`drop table if exists "evals" cascade;`);
  }
}
