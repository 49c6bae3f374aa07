import { Migration } from '@mikro-orm/migrations';

/**
 * Audit retention (docs/api/audit.md#retention): `audit_checkpoints` records each cut of a workspace's chain
 * (the last position removed and its hash), so the rest still verifies from there. The append-only trigger
 * now lets exactly one DELETE through: of an entry inside a recorded cut, in a transaction that named the
 * entry's workspace in the setting `svc.audit_prune` (set only by the prune, transaction-local). UPDATE and
 * TRUNCATE stay refused, and checkpoints themselves are never updated or deleted.
 */
export class Migration20261207123500 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "audit_checkpoints" (
      "id" uuid not null,
      "workspace_id" uuid not null,
      "through_seq" int not null,
      "through_hash" text not null,
      "removed" int not null,
      "cut_before" timestamptz(3) not null,
      "created_at" timestamptz(3) not null,
      constraint "audit_checkpoints_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "audit_checkpoints" add constraint "audit_checkpoints_workspace_seq_unique" unique ("workspace_id", "through_seq");`,
    );
    this.addSql(`create or replace function "audit_entries_append_only"() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          if current_setting('svc.audit_prune', true) = old.workspace_id::text and exists (
            select 1 from audit_checkpoints c where c.workspace_id = old.workspace_id and c.through_seq >= old.seq
          ) then
            return old;
          end if;
        end if;
        raise exception 'audit entries are append-only (% refused)', tg_op using errcode = 'insufficient_privilege';
      end $$;`);
    this.addSql(`create function "audit_checkpoints_append_only"() returns trigger language plpgsql as $$
      begin
        raise exception 'audit checkpoints are append-only (% refused)', tg_op using errcode = 'insufficient_privilege';
      end $$;`);
    this.addSql(`create trigger "audit_checkpoints_append_only" before update or delete on "audit_checkpoints"
      for each row execute function "audit_checkpoints_append_only"();`);
    this.addSql(`create trigger "audit_checkpoints_no_truncate" before truncate on "audit_checkpoints"
      for each statement execute function "audit_checkpoints_append_only"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "audit_checkpoints" cascade;`);
    this.addSql(`drop function if exists "audit_checkpoints_append_only"();`);
    this.addSql(`create or replace function "audit_entries_append_only"() returns trigger language plpgsql as $$
      begin
        raise exception 'audit entries are append-only (% refused)', tg_op using errcode = 'insufficient_privilege';
      end $$;`);
  }
}
