import { isoSql } from './isoSql';

/*
 * A speed trick, kept in this one module: the run and step presenters (presentRun and serializeStep in
 * presenters.ts) restated as SQL, so that a status change stores its event's view in the same statement that
 * changes the row, which took an echo run's worker side from 18 to 10 statements (a step and its event are one
 * statement the same way; bench/README.md, "Where a run spends its time"). `GET /v1/runs/{id}` read this view
 * too, until the plain row through presentRunRow measured no dearer (bench/README.md, "One run presenter").
 * test/runs/statusView.test.ts holds both equal to their presenters on the same rows, in every state.
 */

/** The run view of the row `a` as JSON, exactly as presentRun writes it (presenters.ts). */
export function runViewJson(a: string): string {
  return `jsonb_build_object(
    'id', ${a}.id, 'agentId', ${a}.agent_id, 'agentVersion', ${a}.agent_version, 'status', ${a}.status,
    'input', ${a}.input, 'output', ${a}.output, 'error', ${a}.error, 'pendingAction', ${a}.pending_action,
    'usage', jsonb_build_object('inputTokens', ${a}.input_tokens, 'outputTokens', ${a}.output_tokens,
                                'costUsd', round(${a}.cost_micros)::float8 / 1000000),
    'metadata', ${a}.metadata, 'createdAt', ${isoSql(`${a}.created_at`)}, 'updatedAt', ${isoSql(`${a}.updated_at`)},
    'startedAt', ${isoSql(`${a}.started_at`)}, 'completedAt', ${isoSql(`${a}.completed_at`)})`;
}

/** The step view of the row `a` as JSON, exactly as serializeStep writes it (presenters.ts). */
export function stepViewJson(a: string): string {
  return `jsonb_build_object(
    'index', ${a}.index, 'type', ${a}.type, 'status', ${a}.status, 'detail', ${a}.detail,
    'startedAt', ${isoSql(`${a}.started_at`)}, 'completedAt', ${isoSql(`${a}.completed_at`)})`;
}
