import { Migration } from '@mikro-orm/migrations';

/**
 * The audit log (docs/api/audit.md): one append-only table of entries chained per workspace. The trigger
 * makes "never updated or deleted" hold in the database too, whatever code runs against it; an operator
 * who must remove entries (retention) does it as a superuser with `session_replication_role = replica`,
 * which is also the only way the tests can tamper with a row.
 */
export class Migration20261207103000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "audit_entries" (
      "id" uuid not null,
      "workspace_id" uuid not null,
      "seq" int not null,
      "at" timestamptz(3) not null,
      "action" text not null,
      "resource_type" text not null,
      "resource_id" text not null,
      "actor_type" text not null,
      "actor_user_id" uuid null,
      "actor_key_id" uuid null,
      "ip" text null,
      "user_agent" text null,
      "request_id" text null,
      "details" jsonb not null,
      "prev_hash" text not null,
      "hash" text not null,
      constraint "audit_entries_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "audit_entries" add constraint "audit_entries_workspace_seq_unique" unique ("workspace_id", "seq");`,
    );
    this.addSql(`create function "audit_entries_append_only"() returns trigger language plpgsql as $$
      begin
        raise exception 'audit entries are append-only (% refused)', tg_op using errcode = 'insufficient_privilege';
      end $$;`);
    this.addSql(`create trigger "audit_entries_append_only" before update or delete on "audit_entries"
      for each row execute function "audit_entries_append_only"();`);
    this.addSql(`create trigger "audit_entries_no_truncate" before truncate on "audit_entries"
      for each statement execute function "audit_entries_append_only"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "audit_entries" cascade;`);
    this.addSql(`drop function if exists "audit_entries_append_only"();`);
  }
}
