import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { StepStatus, StepType } from '../../db/entities/RunStep';
import { executePrepared } from '../../db/preparedStatement';
import { RUN_EVENTS_CHANNEL } from './events';
import { stepViewJson } from './runViewSql';

/**
 * A run's step written with its `run.step` event (and the event's notification) in ONE statement, so a
 * step costs one round trip and needs no transaction of its own (a single statement commits whole).
 * The event's data is the step as serializeStep (presenters.ts) shows it, built by PostgreSQL from the
 * row it just wrote (runViewSql.ts); timestamps are written from JavaScript dates (milliseconds) and read back in the
 * same ISO form.
 */

/** Tokens a model turn used, added to the run once: only while its step is still `running`. */
export interface TurnTokens {
  inputTokens: number;
  outputTokens: number;
}

/**
 * Creates the step at `index` of the run, or updates it: its status, its detail merged over the stored
 * one (shallow, as `{ ...old, ...new }`), its completion time set once when the status ends it. With
 * `tokens`, the run's token counts grow by them when the step was `running` before this statement (a
 * retried turn counts its tokens once). That earlier status is read from the statement's snapshot, not
 * locked: a row locked by a statement that then updates it is skipped by the lock, and an attempt of a
 * turn's activity runs after the one before it. Runs in the caller's transaction when there is one.
 */
export async function writeStep(
  em: EntityManager,
  runId: string,
  index: number,
  type: StepType,
  status: StepStatus,
  detail: Record<string, unknown>,
  tokens?: TurnTokens,
): Promise<void> {
  const { ctes, sql, params } = stepStatement({ runId, index, type, status, detail, tokens });
  await executePrepared(em, `with ${ctes} ${sql}`, params);
}

export interface StepWrite {
  runId: string;
  index: number;
  type: StepType;
  status: StepStatus;
  detail: Record<string, unknown>;
  tokens?: TurnTokens;
  /** An SQL condition (over earlier common table expressions) the step and its event are written only under. */
  when?: string;
}

/**
 * {@link writeStep}'s statement in parts, for a statement that writes more around it: `ctes` (its common
 * table expressions, to follow the caller's) and `sql`, the final insert of the event; `params` in that
 * order.
 */
export function stepStatement({ runId, index, type, status, detail, tokens, when }: StepWrite): {
  ctes: string;
  sql: string;
  params: unknown[];
} {
  const now = new Date();
  const ends = status !== 'running' && status !== 'waiting';
  const counted = tokens
    ? `prev as (select status from run_steps where run_id = ? and index = ?),
       counted as (update runs set input_tokens = input_tokens + ?, output_tokens = output_tokens + ?
                   where id = ? and exists (select 1 from prev where status = 'running')),`
    : '';
  const countedParams = tokens ? [runId, index, tokens.inputTokens, tokens.outputTokens, runId] : [];
  // Typed for the `select` form, whose values PostgreSQL cannot type from the column list.
  const typed =
    '?::uuid, ?::timestamptz, ?::timestamptz, ?::uuid, ?::int, ?::text, ?::text, ?::jsonb, ?::timestamptz, ?::timestamptz';
  const ctes = `${counted}
     step as (
       insert into run_steps (id, created_at, updated_at, run_id, index, type, status, detail, started_at, completed_at)
       ${when ? `select ${typed} where ${when}` : 'values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?)'}
       on conflict (run_id, index) do update set
         status = excluded.status,
         detail = run_steps.detail || excluded.detail,
         updated_at = excluded.updated_at,
         completed_at = case when ? then coalesce(run_steps.completed_at, excluded.updated_at) else run_steps.completed_at end
       returning index, type, status, detail, started_at, completed_at),
     notified as (select pg_notify(?, ?) from step)`;
  const sql = `insert into run_events (run_id, type, data)
       select ?, 'run.step', ${stepViewJson('step')}
       from step, notified`;
  const params = [
    ...countedParams,
    randomUUID(),
    now,
    now,
    runId,
    index,
    type,
    status,
    JSON.stringify(detail),
    now,
    ends ? now : null,
    ends,
    RUN_EVENTS_CHANNEL,
    runId,
    runId,
  ];
  return { ctes, sql, params };
}
