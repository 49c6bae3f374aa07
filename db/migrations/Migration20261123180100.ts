import { Migration } from '@mikro-orm/migrations';

/** Improvement proposals: suggested changes to an agent's definition against one version (docs/api/proposals.md). */
export class Migration20261123180100 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "improvement_proposals" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "agent_id" uuid not null references "agents" ("id") on update cascade on delete cascade,
      "base_version" int not null,
      "status" varchar(16) not null,
      "changes" jsonb not null,
      "rationale" text not null,
      "source_feedback_ids" jsonb not null,
      "accepted_version" int null,
      constraint "improvement_proposals_pkey" primary key ("id"));`);
    this.addSql(
      `create index "improvement_proposals_agent_id_created_at_index" on "improvement_proposals" ("agent_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create index "improvement_proposals_agent_id_status_created_at_index" on "improvement_proposals" ("agent_id", "status", "created_at" desc, "id" desc);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "improvement_proposals" cascade;`);
  }
}
