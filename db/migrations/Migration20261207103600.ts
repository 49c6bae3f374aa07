import { Migration } from '@mikro-orm/migrations';

/**
 * WhatsApp replies get a status (docs/api/whatsapp.md#reply-status): `sent` when the Graph API took it (the
 * replies recorded so far), then `delivered`, `read` or `failed` from Meta's status webhooks, looked up by the
 * Graph API's message id; `failed` with an error when it could not be sent (outside the 24-hour window with no
 * template, or refused). Accounts may name a template to send outside the window.
 */
export class Migration20261207103600 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "whatsapp_replies" add column "status" varchar(16) not null default 'sent';`);
    this.addSql(`alter table "whatsapp_replies" add column "error" text null;`);
    this.addSql(`alter table "whatsapp_replies" add column "updated_at" timestamptz null;`);
    this.addSql(`create index "whatsapp_replies_message_id_index" on "whatsapp_replies" ("message_id");`);
    this.addSql(`alter table "whatsapp_accounts" add column "template" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "whatsapp_accounts" drop column "template";`);
    this.addSql(`drop index if exists "whatsapp_replies_message_id_index";`);
    this.addSql(`alter table "whatsapp_replies" drop column "updated_at";`);
    this.addSql(`alter table "whatsapp_replies" drop column "error";`);
    this.addSql(`alter table "whatsapp_replies" drop column "status";`);
  }
}
