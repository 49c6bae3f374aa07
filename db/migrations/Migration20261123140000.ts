import { Migration } from '@mikro-orm/migrations';

/**
 * Credit holds (docs/api/billing.md#holds): a run holds credits from its creation to its end. The run
 * keeps what it holds (`held_micros`, 0 once settled); the ledger gets `hold` and `release` rows next to
 * the one `charge` of a run, so a run's id is no longer unique there: its charge and its release are.
 */
export class Migration20261123140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "runs" add column "held_micros" bigint not null default 0;`);
    this.addSql(`create index "runs_api_key_id_held_index" on "runs" ("api_key_id") where "held_micros" > 0;`);
    this.addSql(`alter table "ledger_entries" drop constraint "ledger_entries_run_id_unique";`);
    this.addSql(
      `create unique index "ledger_entries_run_settlement_unique" on "ledger_entries" ("run_id", "kind") where "kind" in ('charge', 'release');`,
    );
    this.addSql(`create index "ledger_entries_run_id_index" on "ledger_entries" ("run_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "ledger_entries_run_id_index";`);
    this.addSql(`drop index if exists "ledger_entries_run_settlement_unique";`);
    // Only a run's charge stays tied to it, as before holds.
    this.addSql(`update "ledger_entries" set "run_id" = null where "kind" <> 'charge';`);
    this.addSql(`alter table "ledger_entries" add constraint "ledger_entries_run_id_unique" unique ("run_id");`);
    this.addSql(`drop index if exists "runs_api_key_id_held_index";`);
    this.addSql(`alter table "runs" drop column "held_micros";`);
  }
}
