import { Migration } from '@mikro-orm/migrations';

/** The queued-run sweep (domain/runs/recovery.ts) finds runs left in `queued` without reading the whole table. */
export class Migration20261122040000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "runs_queued_created_index" on "runs" ("created_at") where "status" = 'queued';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "runs_queued_created_index";`);
  }
}
