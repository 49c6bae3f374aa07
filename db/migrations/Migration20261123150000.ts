import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency keys of every POST (docs/api/limits.md#idempotency): one row per (workspace, route, key),
 * the request's fingerprint and, once answered, the response to replay (its JSON text as sent, so a
 * replay is byte for byte the first answer). Rows expire after 24 hours; the
 * recovery sweep deletes expired ones, and a claim of an expired key takes the row over.
 */
export class Migration20261123150000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "idempotency_keys" (
      "workspace_id" uuid not null,
      "route" text not null,
      "key" text not null,
      "fingerprint" text not null,
      "state" text not null default 'running',
      "response_status" integer null,
      "response_body" text null,
      "locked_at" timestamptz not null default now(),
      "expires_at" timestamptz not null,
      constraint "idempotency_keys_pkey" primary key ("workspace_id", "route", "key"),
      constraint "idempotency_keys_state_check" check ("state" in ('running', 'done')));`);
    this.addSql(`create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys";`);
  }
}
