import type { EntityManager } from '@mikro-orm/postgresql';
import { TERMINAL_STATUSES as TERMINAL } from '../../workflows/messages';
import type { TransitionPatch } from '../../workflows/activityTypes';
import { executePrepared } from '../../db/preparedStatement';
import { settlementWrites, type Settlement } from '../billing/charge';
import { RUN_EVENTS_CHANNEL } from './events';
import type { RunView } from './presenters';
import { runViewJson } from './runViewSql';
import { observed } from '../shared/observations';

/**
 * A run's status change with its `run.status` event (and the event's notification) in ONE statement: no
 * transaction of its own is needed (a single statement commits whole), and a run's worker side makes one
 * round trip per change instead of the entity's lock, update and event. The event's data is the run as
 * presentRun (presenters.ts) shows it, built by PostgreSQL from the row it just wrote (runViewSql.ts;
 * test/runs/statusView.test.ts holds the two equal); timestamps are written from JavaScript dates
 * (milliseconds) and read back in the same ISO form.
 */

/** The run as a status change leaves it: what its callers read (the plan, the announcement, the outputs). */
export type StatusRow = Pick<
  RunView,
  'id' | 'agentId' | 'agentVersion' | 'status' | 'input' | 'output' | 'error' | 'pendingAction'
> & { workspaceId: string };

export interface StatusWrite {
  /** The run after the statement: changed, or as it was (locked) when the change did nothing. */
  run: StatusRow;
  /** Whether the change was made (and its event stored). */
  changed: boolean;
  /** Whether the settlement asked for was written. */
  settled: boolean;
}

export interface StatusWriteOptions {
  /** The run's start: moves only a `queued` run whose agent version exists (execution.ts, startRun). */
  start?: boolean;
  /**
   * The settlement to write with the change. Computed by a caller holding the run locked, or (with
   * `from`) from the row read unlocked: then the run is settled and changed only while its locked row
   * still has what the settlement was computed from, else nothing is written (`settled` false).
   */
  settle?: {
    run: { id: string; workspaceId: string; apiKeyId: string | null };
    settlement: Settlement;
    from?: { heldMicros: number; inputTokens: number; outputTokens: number; started: boolean };
  };
}

const rowColumns = (a: string) =>
  `${a}.id, ${a}.workspace_id as "workspaceId", ${a}.agent_id as "agentId", ${a}.agent_version as "agentVersion",
   ${a}.status, ${a}.input, ${a}.output, ${a}.error, ${a}.pending_action as "pendingAction"`;

const TERMINAL_SQL = `(${TERMINAL.map((s) => `'${s}'`).join(', ')})`;

/**
 * Applies `patch` to the run under the rules the run's status follows, in the caller's transaction when
 * there is one: a finished run never changes; a repeated change (same status, same pending action) does
 * nothing; `startedAt` is set on the first `running`, `completedAt` on the terminal status, which also
 * clears the pending action; output and error come from the patch. The row is locked first (`for update`,
 * which reads its newest version), so the rules judge the row the update then writes. Returns null when
 * there is no such run.
 */
export async function writeStatus(
  em: EntityManager,
  runId: string,
  patch: TransitionPatch,
  opts: StatusWriteOptions = {},
): Promise<StatusWrite | null> {
  const now = new Date();
  const terminal = TERMINAL.includes(patch.status);
  const guardParams: unknown[] = [patch.status];
  // The pending action after the change: the patch's, or the stored one when the patch leaves it.
  let samePending = '';
  if (patch.pendingAction !== undefined) {
    samePending = ` and (r.pending_action ->> 'id') is not distinct from ?::text`;
    guardParams.push(patch.pendingAction?.id ?? null);
  }
  // Whether the settlement is written: always when computed under the caller's lock; else only while the row
  // is unfinished and still has what it was computed from (and only then may the change end it).
  const from = opts.settle?.from;
  const settles = !opts.settle
    ? 'false'
    : from
      ? `(r.status not in ${TERMINAL_SQL} and r.held_micros = ? and r.input_tokens = ? and r.output_tokens = ?
          and (r.started_at is not null) = ?)`
      : 'true';
  const settlesParams = from ? [from.heldMicros, from.inputTokens, from.outputTokens, from.started] : [];
  const startGuard = opts.start
    ? ` and r.status = 'queued' and exists (
          select 1 from agent_versions v where v.agent_id = r.agent_id and v.version = r.agent_version)`
    : '';

  const sets: string[] = ['status = ?'];
  const setParams: unknown[] = [patch.status];
  if (terminal) sets.push('pending_action = null');
  else if (patch.pendingAction !== undefined) {
    sets.push('pending_action = ?::jsonb');
    setParams.push(patch.pendingAction === null ? null : JSON.stringify(patch.pendingAction));
  }
  for (const [column, value] of [
    ['output', patch.output],
    ['error', patch.error],
  ] as const) {
    if (value === undefined) continue;
    sets.push(`${column} = ?::jsonb`);
    setParams.push(value === null ? null : JSON.stringify(value));
  }
  if (patch.status === 'running') (sets.push('started_at = coalesce(r.started_at, ?)'), setParams.push(now));
  if (terminal) (sets.push('completed_at = coalesce(r.completed_at, ?)'), setParams.push(now));

  // Every patched column keeps its value unless the change moves (a settlement still writes the row).
  const assignments = sets.map((s) => {
    const [column, value] = s.split(/ = (.*)/s);
    return `${column} = case when cur.moves then ${value} else r.${column} end`;
  });
  const settle = opts.settle ? settlementWrites(opts.settle.run, opts.settle.settlement, now) : undefined;
  if (settle) {
    assignments.push(
      'cost_micros = case when cur.settles then ? else r.cost_micros end',
      'held_micros = case when cur.settles then 0 else r.held_micros end',
    );
  }

  const rows = await executePrepared<StatusRow & { changed: boolean; settled: boolean }>(
    em,
    `with cur as (
       select r.*,
              (r.status not in ${TERMINAL_SQL} and not (r.status = ?${samePending})${startGuard}
               ${from ? `and ${settles}` : ''}) as moves,
              ${settles} as settles
       from runs r where r.id = ? for update),
     ${settle?.sql ?? ''}
     upd as (
       update runs r set ${assignments.join(', ')}, updated_at = ?
       from cur where r.id = cur.id and (cur.moves or cur.settles)
       returning r.*, cur.moves, cur.settles),
     notified as (select pg_notify(?, ?) from upd where upd.moves),
     evented as (
       insert into run_events (run_id, type, data)
       select upd.id, 'run.status', ${runViewJson('upd')} from upd, notified)
     select ${rowColumns('upd')}, upd.moves as changed, upd.settles as settled from upd
     union all
     select ${rowColumns('cur')}, false, false from cur where not exists (select 1 from upd)`,
    [
      ...guardParams,
      ...(from ? settlesParams : []),
      ...settlesParams,
      runId,
      ...(settle?.params ?? []),
      ...setParams,
      ...(settle ? [opts.settle!.settlement.charged] : []),
      now,
      RUN_EVENTS_CHANNEL,
      runId,
    ],
  );
  const row = rows[0];
  if (!row) return null;
  const { changed, settled, ...run } = row;
  if (changed && terminal) observed.runFinished(patch.status);
  return { run, changed, settled };
}
