import { Migration } from '@mikro-orm/migrations';

/**
 * Knowledge documents (docs/api/knowledge.md) with PostgreSQL full-text search. The `search` tsvector is
 * maintained by the database (a trigger on title and text), weighted title A, text B, with a GIN index.
 * A tsvector holds less than 1 MB: a document whose full vector would not fit is indexed on its first
 * 128 Ki characters instead of failing the write (its text is still stored whole).
 */
export class Migration20261123170000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "knowledge_documents" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null,
      "title" varchar(255) not null,
      "text" text not null,
      "chars" int not null,
      "source_type" varchar(16) not null,
      "source_file_id" uuid null,
      "source_format" varchar(16) not null,
      "project_id" uuid null,
      "agent_ids" text[] not null,
      "search" tsvector null,
      constraint "knowledge_documents_pkey" primary key ("id"));`);
    this.addSql(`alter table "knowledge_documents" add constraint "knowledge_documents_workspace_id_fkey"
      foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade;`);
    this.addSql(`create index "knowledge_documents_workspace_id_created_at_index"
      on "knowledge_documents" ("workspace_id", "created_at" desc, "id" desc);`);
    // fastupdate off: no pending list that every search must scan until a vacuum merges it.
    this.addSql(
      `create index "knowledge_documents_search_index" on "knowledge_documents" using gin ("search") with (fastupdate = off);`,
    );
    this.addSql(`create index "knowledge_documents_agent_ids_index" on "knowledge_documents" using gin ("agent_ids");`);
    this.addSql(`create function "knowledge_documents_search_vector"() returns trigger language plpgsql as $$
      begin
        begin
          new."search" := setweight(to_tsvector('english', new."title"), 'A')
            || setweight(to_tsvector('english', new."text"), 'B');
        exception when program_limit_exceeded then
          new."search" := setweight(to_tsvector('english', new."title"), 'A')
            || setweight(to_tsvector('english', left(new."text", 131072)), 'B');
        end;
        return new;
      end $$;`);
    this.addSql(`create trigger "knowledge_documents_search_trigger"
      before insert or update of "title", "text" on "knowledge_documents"
      for each row execute function "knowledge_documents_search_vector"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "knowledge_documents" cascade;`);
    this.addSql(`drop function if exists "knowledge_documents_search_vector"();`);
  }
}
