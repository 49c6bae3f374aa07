import { Migration } from '@mikro-orm/migrations';

/**
 * Run artifacts and gate answerers (docs/api/runs.md#artifacts, docs/api/runs.md#report). `run_artifacts`
 * names the files a run produced, with the step that wrote each; a file is the artifact of one run at most,
 * and deleting the file deletes its artifact row. `run_gate_answers` keeps who answered each of a run's
 * gates (a user's session or an API key) and when; the answer itself is in the gate's step.
 */
export class Migration20261207102000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "run_artifacts" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "run_id" uuid not null,
      "file_id" uuid not null,
      "step" int null,
      constraint "run_artifacts_pkey" primary key ("id"));`);
    this.addSql(`alter table "run_artifacts" add constraint "run_artifacts_file_id_unique" unique ("file_id");`);
    this.addSql(
      `alter table "run_artifacts" add constraint "run_artifacts_run_id_fkey" foreign key ("run_id") references "runs" ("id") on update no action on delete cascade;`,
    );
    this.addSql(
      `alter table "run_artifacts" add constraint "run_artifacts_file_id_fkey" foreign key ("file_id") references "files" ("id") on update no action on delete cascade;`,
    );
    this.addSql(
      `create index "run_artifacts_run_id_created_at_index" on "run_artifacts" ("run_id", "created_at" desc, "id" desc);`,
    );

    this.addSql(`create table "run_gate_answers" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "run_id" uuid not null,
      "action_id" varchar(64) not null,
      "actor" varchar(16) not null,
      "user_id" uuid null,
      "key_id" uuid null,
      constraint "run_gate_answers_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "run_gate_answers" add constraint "run_gate_answers_run_id_action_id_unique" unique ("run_id", "action_id");`,
    );
    this.addSql(
      `alter table "run_gate_answers" add constraint "run_gate_answers_run_id_fkey" foreign key ("run_id") references "runs" ("id") on update no action on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "run_gate_answers" cascade;`);
    this.addSql(`drop table if exists "run_artifacts" cascade;`);
  }
}
