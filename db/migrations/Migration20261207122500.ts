import { Migration } from '@mikro-orm/migrations';

/**
 * Retention (docs/operations.md#retention) walks each large table oldest first, `(created_at, <key>)` after the
 * last row it looked at, so every batch reads an index range of its own size whatever the table's: no
 * sequential scan, and a batch never re-reads the rows a longer plan keeps. Done outbox rows are found by
 * their `done_at` the same way.
 */
export class Migration20261207122500 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "run_events_created_at_seq_index" on "run_events" ("created_at", "seq");`);
    this.addSql(`create index "webhook_deliveries_created_at_id_index" on "webhook_deliveries" ("created_at", "id");`);
    this.addSql(`create index "webhook_events_created_at_id_index" on "webhook_events" ("created_at", "id");`);
    this.addSql(
      `create index "conversation_messages_created_at_id_index" on "conversation_messages" ("created_at", "id");`,
    );
    this.addSql(`create index "outbox_done_at_index" on "outbox" ("done_at") where "done_at" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "outbox_done_at_index";`);
    this.addSql(`drop index if exists "conversation_messages_created_at_id_index";`);
    this.addSql(`drop index if exists "webhook_events_created_at_id_index";`);
    this.addSql(`drop index if exists "webhook_deliveries_created_at_id_index";`);
    this.addSql(`drop index if exists "run_events_created_at_seq_index";`);
  }
}
