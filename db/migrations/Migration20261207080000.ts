import { Migration } from '@mikro-orm/migrations';

/**
 * Local-runner batches (docs/api/runs.md#local-runs): each `POST /v1/local-runs` is kept as a batch that
 * `GET /v1/local-runs` lists and reads, with its runs' ids in the order they were reported.
 */
export class Migration20261207080000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "local_run_batches" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "agent_id" uuid not null,
      "run_ids" jsonb not null,
      constraint "local_run_batches_pkey" primary key ("id"));`);
    this.addSql(
      `create index "local_run_batches_workspace_created_index" on "local_run_batches" ("workspace_id", "created_at" desc, "id" desc);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "local_run_batches" cascade;`);
  }
}
