import { Migration } from '@mikro-orm/migrations';

/** Agents with immutable versions, runs (the read model), their steps, events and feedback. */
export class Migration20261122020000 extends Migration {
  override async up(): Promise<void> {
    this
      .addSql(`create table "agents" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "name" varchar(255) not null, "preset_id" varchar(255) not null, "current_version" int not null,
      "deleted_at" timestamptz null, constraint "agents_pkey" primary key ("id"));`);
    this.addSql(
      `create index "agents_workspace_id_created_at_index" on "agents" ("workspace_id", "created_at" desc, "id" desc);`,
    );

    this
      .addSql(`create table "agent_versions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "agent_id" uuid not null references "agents" ("id") on update cascade on delete cascade,
      "version" int not null, "instructions" text null, "model_id" varchar(255) not null,
      "tools" jsonb not null, "settings" jsonb not null, constraint "agent_versions_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "agent_versions" add constraint "agent_versions_agent_id_version_unique" unique ("agent_id", "version");`,
    );

    this
      .addSql(`create table "runs" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "workspace_id" uuid not null references "workspaces" ("id") on update cascade on delete cascade,
      "agent_id" uuid not null, "agent_version" int not null, "status" varchar(32) not null,
      "input" jsonb not null, "output" jsonb null, "error" jsonb null, "pending_action" jsonb null, "metadata" jsonb not null,
      "input_tokens" int not null default 0, "output_tokens" int not null default 0, "cost_micros" bigint not null default 0,
      "started_at" timestamptz null, "completed_at" timestamptz null,
      "api_key_id" uuid null, "user_id" uuid null, "idempotency_key" varchar(255) null, "request_hash" varchar(64) null,
      "origin" varchar(16) not null default 'temporal', "answered_action_id" varchar(64) null, constraint "runs_pkey" primary key ("id"));`);
    // Keyset pagination newest first, unfiltered and by the two filters of GET /v1/runs.
    this.addSql(
      `create index "runs_workspace_created_index" on "runs" ("workspace_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create index "runs_workspace_status_created_index" on "runs" ("workspace_id", "status", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create index "runs_workspace_agent_created_index" on "runs" ("workspace_id", "agent_id", "created_at" desc, "id" desc);`,
    );
    // One run per Idempotency-Key within a workspace (docs/api/limits.md#idempotency).
    this.addSql(
      `create unique index "runs_workspace_idempotency_key_unique" on "runs" ("workspace_id", "idempotency_key") where "idempotency_key" is not null;`,
    );
    // The unverified-account limit counts a user's runs.
    this.addSql(`create index "runs_user_id_index" on "runs" ("user_id") where "user_id" is not null;`);

    this
      .addSql(`create table "run_steps" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "run_id" uuid not null references "runs" ("id") on delete cascade, "index" int not null, "type" varchar(32) not null,
      "status" varchar(32) not null, "detail" jsonb not null, "started_at" timestamptz not null, "completed_at" timestamptz null,
      constraint "run_steps_pkey" primary key ("id"));`);
    this.addSql(`alter table "run_steps" add constraint "run_steps_run_id_index_unique" unique ("run_id", "index");`);

    // The event log behind GET /v1/runs/{id}/events: `seq` is the SSE id, so Last-Event-ID resumes exactly.
    this
      .addSql(`create table "run_events" ("seq" bigserial primary key, "run_id" uuid not null references "runs" ("id") on delete cascade,
      "type" varchar(32) not null, "data" jsonb not null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "run_events_run_id_seq_index" on "run_events" ("run_id", "seq");`);

    this
      .addSql(`create table "feedback" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null,
      "run_id" uuid not null references "runs" ("id") on delete cascade, "workspace_id" uuid not null,
      "rating" int not null, "corrected_output" jsonb null, "comment" text null, constraint "feedback_pkey" primary key ("id"));`);
    this.addSql(`create index "feedback_run_id_index" on "feedback" ("run_id");`);
  }

  override async down(): Promise<void> {
    for (const t of ['feedback', 'run_events', 'run_steps', 'runs', 'agent_versions', 'agents']) {
      this.addSql(`drop table if exists "${t}" cascade;`);
    }
  }
}
