import { Migration } from '@mikro-orm/migrations';

/**
 * Approval policies on a flow's approval step (docs/api/flows.md#approval-policies): the answers people
 * gave at a step under a policy, one per person and step, like `gate_answers` for runs.
 */
export class Migration20261207123501 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "flow_gate_answers" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "flow_run_id" uuid not null references "flow_runs" ("id") on update cascade on delete cascade,
      "action_id" varchar(64) not null,
      "approver" varchar(80) not null,
      "user_id" uuid null,
      "api_key_id" uuid null,
      "approved" boolean not null,
      "comment" text null,
      constraint "flow_gate_answers_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "flow_gate_answers" add constraint "flow_gate_answers_run_action_approver_unique" unique ("flow_run_id", "action_id", "approver");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "flow_gate_answers" cascade;`);
  }
}
