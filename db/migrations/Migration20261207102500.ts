import { Migration } from '@mikro-orm/migrations';

/**
 * Approval policies (docs/api/runs.md#approval-policies): the answers people gave at a gate under a
 * policy, one per person and gate, and who made each API key (a key answers, and starts runs, as the
 * person who made it; keys made before stay without one).
 */
export class Migration20261207102500 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "gate_answers" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "run_id" uuid not null references "runs" ("id") on update cascade on delete cascade,
      "action_id" varchar(64) not null,
      "approver" varchar(80) not null,
      "user_id" uuid null,
      "api_key_id" uuid null,
      "approved" boolean not null,
      "comment" text null,
      constraint "gate_answers_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "gate_answers" add constraint "gate_answers_run_action_approver_unique" unique ("run_id", "action_id", "approver");`,
    );
    this.addSql(`alter table "api_keys" add column "created_by_user_id" uuid null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "gate_answers" cascade;`);
    this.addSql(`alter table "api_keys" drop column if exists "created_by_user_id";`);
  }
}
