import { Migration } from '@mikro-orm/migrations';

/**
 * Projects and their members (docs/api/projects.md); agents may belong to one project. Deleting a project
 * leaves its agents in the workspace without a project (`on delete set null`) and removes its members.
 */
export class Migration20261123160000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "projects" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "name" varchar(255) not null,
      "description" text null,
      constraint "projects_pkey" primary key ("id"));`);
    this.addSql(
      `create index "projects_workspace_id_created_at_index" on "projects" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(`create table "project_members" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "project_id" uuid not null references "projects" ("id") on update cascade on delete cascade,
      "user_id" uuid not null references "users" ("id") on update cascade on delete cascade,
      "role" varchar(16) not null,
      constraint "project_members_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "project_members" add constraint "project_members_project_id_user_id_unique" unique ("project_id", "user_id");`,
    );
    this.addSql(`create index "project_members_user_id_index" on "project_members" ("user_id");`);
    this.addSql(
      `create index "project_members_project_id_created_at_index" on "project_members" ("project_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `alter table "agents" add column "project_id" uuid null references "projects" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `create index "agents_project_id_created_at_index" on "agents" ("project_id", "created_at" desc, "id" desc);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "agents" drop column if exists "project_id";`);
    this.addSql(`drop table if exists "project_members" cascade;`);
    this.addSql(`drop table if exists "projects" cascade;`);
  }
}
