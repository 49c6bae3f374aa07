import { Migration } from '@mikro-orm/migrations';

/**
 * A delivery's subscription id is no longer a foreign key. Every delivery is recorded from the
 * subscriptions listening in the same statement (domain/webhooks/dispatch.ts), so the id is valid when
 * written, and a subscription is never deleted, only marked (`deleted_at`): the cascade never ran. What
 * the key cost on every fan-out: each new delivery locked its subscription's row (`for key share`), a
 * write of that row and a WAL record apiece, a third of the recording's statement at 100 subscribers
 * (bench/README.md, "The recording without the subscription key"); concurrent fan-outs of one
 * workspace shared those locks as multixacts. Readers of a delivery already treat a subscription they
 * cannot find as gone.
 */
export class Migration20261127220000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_subscription_id_fkey";`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_subscription_id_fkey" foreign key ("subscription_id") references "webhook_subscriptions" ("id") on update no action on delete cascade;`,
    );
  }
}
