import { Migration } from '@mikro-orm/migrations';

/**
 * API replicas remember which keys hold and their workspace's plan (domain/identity/apiKeyCache.ts). These
 * triggers announce, on channel `svc_api_keys` and in the transaction that makes the change (so the notice
 * goes out exactly when it commits, whoever makes it), every change that can end what they remember: a key
 * revoked or deleted (`key:<id>`), a workspace's plan changed or the workspace deleted (`workspace:<id>`).
 */
export class Migration20261124140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function "svc_notify_api_key_change"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('svc_api_keys', 'key:' || old.id);
        return null;
      end $$;`);
    this.addSql(`create trigger "api_keys_notify_revoke" after update of "revoked_at" on "api_keys"
      for each row when (old.revoked_at is distinct from new.revoked_at)
      execute function "svc_notify_api_key_change"();`);
    this.addSql(`create trigger "api_keys_notify_delete" after delete on "api_keys"
      for each row execute function "svc_notify_api_key_change"();`);

    this.addSql(`create function "svc_notify_workspace_change"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('svc_api_keys', 'workspace:' || old.id);
        return null;
      end $$;`);
    this.addSql(`create trigger "workspaces_notify_plan" after update of "plan" on "workspaces"
      for each row when (old.plan is distinct from new.plan)
      execute function "svc_notify_workspace_change"();`);
    this.addSql(`create trigger "workspaces_notify_delete" after delete on "workspaces"
      for each row execute function "svc_notify_workspace_change"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "workspaces_notify_delete" on "workspaces";`);
    this.addSql(`drop trigger if exists "workspaces_notify_plan" on "workspaces";`);
    this.addSql(`drop function if exists "svc_notify_workspace_change"();`);
    this.addSql(`drop trigger if exists "api_keys_notify_delete" on "api_keys";`);
    this.addSql(`drop trigger if exists "api_keys_notify_revoke" on "api_keys";`);
    this.addSql(`drop function if exists "svc_notify_api_key_change"();`);
  }
}
