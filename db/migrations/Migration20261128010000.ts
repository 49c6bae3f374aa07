import { Migration } from '@mikro-orm/migrations';

/**
 * A hostname is held by the app that proves it, not by the first to type it. Until now any workspace could
 * add a hostname it does not own and leave it pending, and the owner of its DNS could then never add it
 * (409): squatting. Now a pending claim holds nothing: several apps may claim one hostname, each with its
 * own TXT value, and at most one claim is `verified` at a time (docs/api/apps.md#custom-domains). One app
 * still claims a hostname once.
 */
export class Migration20261128010000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "app_domains" drop constraint "app_domains_hostname_unique";`);
    this.addSql(
      `alter table "app_domains" add constraint "app_domains_app_id_hostname_unique" unique ("app_id", "hostname");`,
    );
    this.addSql(
      `create unique index "app_domains_hostname_verified_unique" on "app_domains" ("hostname") where "status" = 'verified';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "app_domains_hostname_verified_unique";`);
    this.addSql(`alter table "app_domains" drop constraint "app_domains_app_id_hostname_unique";`);
    // one claim per hostname again: the verified one, else the oldest
    this.addSql(
      `delete from "app_domains" d using "app_domains" o
        where o.hostname = d.hostname and o.id <> d.id
          and (o.status = 'verified' and d.status <> 'verified'
               or o.status = d.status and (o.created_at, o.id) < (d.created_at, d.id));`,
    );
    this.addSql(`alter table "app_domains" add constraint "app_domains_hostname_unique" unique ("hostname");`);
  }
}
