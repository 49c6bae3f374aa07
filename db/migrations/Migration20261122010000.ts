import { Migration } from '@mikro-orm/migrations';

/** The file library: folders (a tree per workspace) and files, whose bytes live in storage. */
export class Migration20261122010000 extends Migration {
  override async up(): Promise<void> {
    // parent_id has no cascade: deleting a folder that still has subfolders fails (409 conflict).
    this
      .addSql(`create table "folders" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "parent_id" uuid null references "folders" ("id") on update cascade,
      "name" varchar(255) not null, constraint "folders_pkey" primary key ("id"));`);
    // Keyset pagination newest first, over the workspace and over one parent.
    this.addSql(
      `create index "folders_workspace_id_created_at_index" on "folders" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create index "folders_parent_id_created_at_index" on "folders" ("parent_id", "created_at" desc, "id" desc);`,
    );

    // folder_id has no cascade either: a folder holding files cannot be deleted, so a file never loses its folder.
    this
      .addSql(`create table "files" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "folder_id" uuid null references "folders" ("id") on update cascade,
      "filename" varchar(255) not null, "mime" varchar(255) not null, "size" bigint not null, "sha256" varchar(64) not null,
      "storage_key" varchar(255) not null, constraint "files_pkey" primary key ("id"));`);
    this.addSql(
      `create index "files_workspace_id_created_at_index" on "files" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create index "files_folder_id_created_at_index" on "files" ("folder_id", "created_at" desc, "id" desc);`,
    );
  }

  override async down(): Promise<void> {
    for (const t of ['files', 'folders']) {
      this.addSql(`drop table if exists "${t}" cascade;`);
    }
  }
}
