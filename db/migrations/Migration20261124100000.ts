import { Migration } from '@mikro-orm/migrations';

/**
 * Conversations and their messages (docs/api/conversations.md): the read model of the workflows
 * `conversation-<id>`. A channel's message id is unique in its conversation (a repeated delivery is
 * recognised), and so is the user message an assistant message answers (one reply per message).
 */
export class Migration20261124100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "conversations" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "agent_id" uuid not null,
      "channel" varchar(32) not null,
      "channel_ref" text null,
      "subject" text null,
      "status" varchar(16) not null,
      "ended_reason" text null,
      "ended_at" timestamptz null,
      "context" jsonb not null,
      "opened_by" text null,
      constraint "conversations_pkey" primary key ("id"));`);
    this.addSql(
      `create index "conversations_workspace_id_created_at_index" on "conversations" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(`create index "conversations_agent_id_index" on "conversations" ("agent_id");`);
    this.addSql(`create table "conversation_messages" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "conversation_id" uuid not null references "conversations" ("id") on update cascade on delete cascade,
      "seq" int not null,
      "role" varchar(16) not null,
      "text" text not null,
      "channel_message_id" text null,
      "run_id" uuid null,
      "reply_to" text null,
      "delivered_at" timestamptz null,
      constraint "conversation_messages_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "conversation_messages" add constraint "conversation_messages_conversation_id_seq_unique" unique ("conversation_id", "seq");`,
    );
    this.addSql(
      `create unique index "conversation_messages_channel_message_id_unique" on "conversation_messages" ("conversation_id", "channel_message_id") where "channel_message_id" is not null;`,
    );
    this.addSql(
      `create unique index "conversation_messages_reply_to_unique" on "conversation_messages" ("conversation_id", "reply_to") where "reply_to" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "conversation_messages" cascade;`);
    this.addSql(`drop table if exists "conversations" cascade;`);
  }
}
