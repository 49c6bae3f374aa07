import { Migration } from '@mikro-orm/migrations';

/**
 * WhatsApp (docs/api/whatsapp.md): accounts (credentials sealed by platform/secrets.ts; a removed account keeps
 * its row, so one phone number id is unique among the workspace's live accounts only), which account and contact
 * each WhatsApp conversation belongs to, and the replies the Graph API accepted (so a retried send never posts
 * twice).
 */
export class Migration20261124130000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "whatsapp_accounts" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "updated_at" timestamptz not null,
      "workspace_id" uuid not null,
      "agent_id" uuid not null,
      "phone_number_id" varchar(64) not null,
      "access_token" text not null,
      "app_secret" text not null,
      "verify_token" text not null,
      "deleted_at" timestamptz null,
      constraint "whatsapp_accounts_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "whatsapp_accounts" add constraint "whatsapp_accounts_workspace_id_fkey" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "whatsapp_accounts" add constraint "whatsapp_accounts_agent_id_fkey" foreign key ("agent_id") references "agents" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`create index "whatsapp_accounts_agent_id_index" on "whatsapp_accounts" ("agent_id");`);
    this.addSql(
      `create index "whatsapp_accounts_workspace_id_created_at_index" on "whatsapp_accounts" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create unique index "whatsapp_accounts_live_phone_number_unique" on "whatsapp_accounts" ("workspace_id", "phone_number_id") where "deleted_at" is null;`,
    );

    this.addSql(`create table "whatsapp_conversations" (
      "id" uuid not null,
      "created_at" timestamptz(3) not null,
      "workspace_id" uuid not null,
      "account_id" uuid not null,
      "wa_id" varchar(64) not null,
      constraint "whatsapp_conversations_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "whatsapp_conversations" add constraint "whatsapp_conversations_account_id_fkey" foreign key ("account_id") references "whatsapp_accounts" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `create index "whatsapp_conversations_workspace_id_created_at_index" on "whatsapp_conversations" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create index "whatsapp_conversations_account_id_created_at_index" on "whatsapp_conversations" ("account_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create index "whatsapp_conversations_account_id_wa_id_index" on "whatsapp_conversations" ("account_id", "wa_id");`,
    );

    this.addSql(`create table "whatsapp_replies" (
      "conversation_id" uuid not null,
      "reply_seq" int not null,
      "message_id" varchar(255) null,
      "created_at" timestamptz not null,
      constraint "whatsapp_replies_pkey" primary key ("conversation_id", "reply_seq"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "whatsapp_replies" cascade;`);
    this.addSql(`drop table if exists "whatsapp_conversations" cascade;`);
    this.addSql(`drop table if exists "whatsapp_accounts" cascade;`);
  }
}
