import { Migration } from '@mikro-orm/migrations';

/**
 * Twilio signs callbacks with the account's Auth Token, so a number's own secret is now the token in its
 * callback URL (docs/api/phone.md#callbacks), of which only a SHA-256 is kept. A number connected before
 * gets a token nobody knows: its old URL answers 404 until its owner rotates the secret and pastes the new
 * callback URL into Twilio. An outbound call keeps its own sealed token for the URL it gives Twilio.
 */
export class Migration20261207103500 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "phone_numbers" add column "callback_token_hash" varchar(64) null;`);
    this.addSql(
      `update "phone_numbers" set "callback_token_hash" = encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex');`,
    );
    this.addSql(`alter table "phone_numbers" alter column "callback_token_hash" set not null;`);
    this.addSql(`alter table "phone_numbers" drop column "webhook_secret";`);
    this.addSql(`alter table "phone_calls" add column "callback_token" text not null default '';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "phone_calls" drop column "callback_token";`);
    this.addSql(`alter table "phone_numbers" add column "webhook_secret" text not null default '';`);
    this.addSql(`alter table "phone_numbers" drop column "callback_token_hash";`);
  }
}
