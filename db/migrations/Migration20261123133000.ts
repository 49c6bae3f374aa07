import { Migration } from '@mikro-orm/migrations';

/**
 * A run's conversation with its model (db/entities/RunMessage.ts), kept in PostgreSQL so the run
 * workflow passes ids instead of carrying the conversation in its history. One row per message;
 * `(run_id, index)` unique so a retried activity cannot append twice.
 */
export class Migration20261123133000 extends Migration {
  override async up(): Promise<void> {
    this
      .addSql(`create table "run_messages" ("id" uuid not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz not null,
      "run_id" uuid not null references "runs" ("id") on delete cascade, "index" int not null, "role" varchar(16) not null,
      "message" jsonb not null, constraint "run_messages_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "run_messages" add constraint "run_messages_run_id_index_unique" unique ("run_id", "index");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "run_messages" cascade;`);
  }
}
