import { Migration } from '@mikro-orm/migrations';

/**
 * Runs whose webhooks are still to be announced (runs reported by a local runner, and runs whose
 * workflow could not be started: they have no workflow to do it). Set in the transaction that records them, cleared once announced; the API's
 * recovery sweep announces those a failed request left behind (then api/runRecovery.ts; the outbox replaced the mark later).
 */
export class Migration20261122060000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "runs" add column "announce_pending" boolean not null default false;`);
    this.addSql(`create index "runs_announce_pending_index" on "runs" ("created_at") where "announce_pending";`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "runs_announce_pending_index";`);
    this.addSql(`alter table "runs" drop column "announce_pending";`);
  }
}
