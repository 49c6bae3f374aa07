import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { OutboxCall, OutboxEntry } from '../../db/entities/OutboxEntry';
import type { Run } from '../../db/entities/Run';
import type { Config } from '../../platform/config';
import { executePrepared } from '../../db/preparedStatement';
import { callerChecks, insufficient, refusal, type CallerFacts } from '../billing/runChecks';
import type { RunCreator } from '../identity/identity';
import { OUTBOX_COLUMNS, outboxEntry, outboxValues } from '../shared/outbox/relay';
import { draftRun, onBehalfOfCaller, type RunDraft } from './runGate';
import { serializeRun } from './presenters';
import { observed } from '../shared/observations';

/**
 * Rows that belong to the run from its first moment (an app's run token): written in the transaction that
 * inserts the run, after it, so the run never commits without them nor they without it.
 */
export type WithRun = (tx: EntityManager, run: Run) => Promise<void> | void;

/** How often a create whose checks passed retries when the balance moved under its update. */
const ATTEMPTS = 5;

export interface InsertRunOptions {
  withRun?: WithRun;
  /**
   * Admit the run only while its agent is live in the run's workspace at `run.agentVersion` (a version
   * remembered rather than read just now: domain/agents/agentCache.ts). When it is not, nothing is written
   * and insertRun answers false, before any billing check.
   */
  checkAgent?: boolean;
}

/** The run inserted, the outbox row of its start, and the run as its first event shows it (JSON). */
export interface InsertedRun {
  run: Run;
  start: OutboxEntry;
  shown: string;
}

/**
 * The gate (runGate.ts) in one statement, for `POST /v1/runs` and the runs an API request starts at once
 * (an app's submission, a finance run): admits and inserts a new run of `draft` on behalf of `identity`
 * (docs/api/runs.md, create): the caller's checks
 * (domain/billing/runChecks.ts), the hold of `required` micro-USD off the workspace balance only when it
 * covers it (docs/api/billing.md#holds), the run, its hold's ledger row, its first event and `start`, the
 * outbox row of its workflow's start. The first event notifies nobody: no stream can wait for a run
 * that does not exist yet (a stream of an unknown run is 404), and a notifying commit holds PostgreSQL's
 * one notify lock through its WAL flush, which concurrent creates would queue on. A single
 * statement is its own transaction, so the run never commits without its hold, event or start, nor they
 * without it. Only a caller that must be counted under a lock (an unverified session, a capped key) or
 * rows of `withRun` make it a transaction of more statements. Throws the refusal of the first failing
 * check; a second run under one Idempotency-Key fails with the unique violation of its insert. Null only
 * when `checkAgent` found the agent changed or gone.
 */
export async function insertRun(
  em: EntityManager,
  identity: RunCreator,
  config: Config,
  draft: RunDraft,
  startOf: (run: Run) => OutboxCall,
  required: number,
  { withRun, checkAgent = false }: InsertRunOptions = {},
): Promise<InsertedRun | null> {
  const run = draftRun(onBehalfOfCaller(identity), draft);
  run.heldMicros = required;
  // The start of its workflow commits with the run, so neither exists without the other.
  const start = outboxEntry(startOf(run), { held: true });
  // Its first event and the answer show the run alike: serialised once for both.
  const shown = JSON.stringify(serializeRun(run));
  let locked = callerChecks(identity, config, false).lock !== null;
  for (let attempt = 1; ; attempt++) {
    const checks = callerChecks(identity, config, locked);
    const statement = admitStatement(run, start, required, checks, checkAgent, shown);
    const row =
      checks.lock || withRun
        ? await em.transactional(async (tx) => {
            if (checks.lock) await tx.execute(checks.lock.sql, checks.lock.params);
            const [admitted] = await tx.execute<AdmitRow[]>(statement.sql, statement.params);
            if (admitted.inserted && withRun) {
              // The run is in the transaction already: managed, rows of withRun may refer to it.
              tx.merge(run);
              await withRun(tx, run);
              await tx.flush();
            }
            return admitted;
          })
        : // The statement alone: prepared once per connection (in the caller's transaction when there is one).
          (await executePrepared<AdmitRow>(em, statement.sql, statement.params))[0];
    if (row.inserted) {
      observed.runCreated('request');
      return { run, start, shown };
    }
    if (!row.agent_current) return null;
    const balance = Number(row.balance);
    const refused = refusal(identity, config, row, locked, required, balance);
    if (refused === 'lock') locked = true;
    else if (refused) throw refused;
    else if (attempt >= ATTEMPTS) throw insufficient(required, balance);
  }
}

interface AdmitRow extends CallerFacts {
  inserted: boolean;
  agent_current: boolean;
  balance: string;
}

function admitStatement(
  run: Run,
  start: OutboxEntry,
  required: number,
  checks: ReturnType<typeof callerChecks>,
  checkAgent: boolean,
  shown: string,
): { sql: string; params: unknown[] } {
  const now = run.createdAt;
  const agent = checkAgent
    ? `select exists (select 1 from agents where id = ? and workspace_id = ? and current_version = ?
                                             and deleted_at is null) as current`
    : 'select true as current';
  const sql = `with facts as (${checks.facts.sql}),
    agent as (${agent}),
    hold as (
      update workspaces set credit_balance_micros = credit_balance_micros - ?
       where id = ? and credit_balance_micros >= ? and (select current from agent)
         and (select ${checks.pass.sql} from facts)
      returning id),
    run as (
      insert into runs (id, created_at, updated_at, workspace_id, agent_id, agent_version, status, input, metadata,
                        input_tokens, output_tokens, cost_micros, held_micros, api_key_id, user_id, idempotency_key,
                        request_hash, origin)
      select ?, ?, ?, hold.id, ?, ?, ?, ?::jsonb, ?::jsonb, 0, 0, 0, ?, ?, ?, ?, ?, ? from hold
      returning id),
    ledger as (
      insert into ledger_entries (id, created_at, updated_at, workspace_id, kind, amount_micros, description, api_key_id, run_id)
      select ?, ?, ?, ?, 'hold', ?, ?, ?, run.id from run where ?::bigint > 0),
    event as (
      insert into run_events (run_id, type, data)
      select run.id, 'run.status', ?::jsonb from run),
    start as (
      insert into outbox (${OUTBOX_COLUMNS})
      select ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ? from run)
    select exists (select 1 from run) as inserted, (select current from agent) as agent_current, facts.*,
           (select credit_balance_micros from workspaces where id = ?) as balance
      from facts`;
  const params = [
    ...checks.facts.params,
    ...(checkAgent ? [run.agentId, run.workspaceId, run.agentVersion] : []),
    required,
    run.workspaceId,
    required,
    ...checks.pass.params,
    run.id,
    now,
    now,
    run.agentId,
    run.agentVersion,
    run.status,
    JSON.stringify(run.input),
    JSON.stringify(run.metadata),
    required,
    run.apiKeyId,
    run.userId,
    run.idempotencyKey,
    run.requestHash,
    run.origin,
    randomUUID(),
    now,
    now,
    run.workspaceId,
    -required,
    `Hold for run ${run.id}`,
    run.apiKeyId,
    required,
    shown,
    ...outboxValues(start),
    run.workspaceId,
  ];
  return { sql, params };
}
