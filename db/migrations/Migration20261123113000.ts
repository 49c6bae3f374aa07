import { Migration } from '@mikro-orm/migrations';

/** An agent's versions page like every list: the keyset index newest first within the agent. */
export class Migration20261123113000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "agent_versions_agent_id_created_at_index" on "agent_versions" ("agent_id", "created_at" desc, "id" desc);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "agent_versions_agent_id_created_at_index";`);
  }
}
