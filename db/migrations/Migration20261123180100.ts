import { Migration } from '@mikro-orm/migrations';

/**
 * Improvement proposals: suggested changes to an agent's definition against one version
 * (docs/api/proposals.md). Knowledge documents' `project_id` becomes a foreign key like agents' (deleting
 * a project clears it); ids that named no project, accepted before projects were checked, are cleared.
 */
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
    this.addSql(`update "knowledge_documents" set "project_id" = null
      where "project_id" is not null and not exists (
        select 1 from "projects" p where p."id" = "knowledge_documents"."project_id"
          and p."workspace_id" = "knowledge_documents"."workspace_id");`);
    this.addSql(`alter table "knowledge_documents" add constraint "knowledge_documents_project_id_fkey"
      foreign key ("project_id") references "projects" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "knowledge_documents" drop constraint if exists "knowledge_documents_project_id_fkey";`);
    this.addSql(`drop table if exists "improvement_proposals" cascade;`);
  }
}
