import { Migration } from '@mikro-orm/migrations';

/**
 * Runs made later by the worker (a tutor or copilot turn, a flow's agent step) count against the key or
 * user on whose behalf they are made (docs/api/billing.md#who-pays): the user message of a turn, a flow
 * run and a flow (whoever saved it last, for its webhook and schedule triggers) keep that principal.
 */
export class Migration20261207030000 extends Migration {
  override async up(): Promise<void> {
    for (const table of ['conversation_messages', 'flow_runs', 'flows']) {
      this.addSql(`alter table "${table}" add column "api_key_id" uuid null, add column "user_id" uuid null;`);
    }
  }

  override async down(): Promise<void> {
    for (const table of ['conversation_messages', 'flow_runs', 'flows']) {
      this.addSql(`alter table "${table}" drop column "api_key_id", drop column "user_id";`);
    }
  }
}
