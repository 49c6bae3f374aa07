import type { EntityManager } from '@mikro-orm/postgresql';
import { Run } from '../../db/entities/Run';
import type { StepStatus, StepType } from '../../db/entities/RunStep';
import type { Orm } from '../../db/orm';
import { TERMINAL_STATUSES as TERMINAL, type RunStatus } from '../../workflows/messages';
import type { AnnouncedRun, RunPlan, StatusWriteOptions, TransitionPatch } from '../../workflows/activityTypes';
import { untilDatabaseAnswers } from '../../platform/database/wait';
import type { ModelRegistry } from '../models/registry';
import type { ModelTurnRequest } from '../../workflows/activityTypes';
import type { ToolCall, TurnResult } from '../models/types';
import { coverNextTurn } from '../billing/holds';
import { ASK_USER, type ToolRegistry } from '../tools/registry';
import { findVersionDefinition } from '../agents/versionCache';
import { writeStep, type TurnTokens } from './stepWrites';
import { writeStatus, type StatusRow } from './statusWrites';
import { finishAtOnce, finishInTransaction } from './finish';

export { finishInTransaction };

/** A run that cannot execute at all (its row or its agent version vanished): retrying cannot help. */
export class RunNotExecutable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunNotExecutable';
  }
}

/**
 * A tool call naming a tool the run's agent version does not list (`ask_user` is always allowed): the
 * run fails with `agent.tool_not_allowed` and the tool is never reached (docs/api/agents.md#tools).
 */
export class ToolNotAllowed extends Error {
  constructor(readonly tool: string) {
    super(`The agent version does not list the tool ${JSON.stringify(tool)}`);
    this.name = 'ToolNotAllowed';
  }
}

/** The first call among `calls` that `listed` does not allow, if any. */
function refusedCall(calls: ToolCall[], listed: ReadonlySet<string>): ToolCall | undefined {
  return calls.find((c) => c.name !== ASK_USER && !listed.has(c.name));
}

export interface RunExecutionDeps {
  orm: Orm;
  models: ModelRegistry;
  tools: ToolRegistry;
  /**
   * Called after a status change commits, with the run as the change left it (announceRunStatus): for an
   * announced status starts the webhook fan-out, or with `announcesInline` returns the announcement (when
   * someone listens) instead.
   */
  onStatus?: (run: StatusRow, opts: StatusWriteOptions) => Promise<AnnouncedRun | null>;
}

/**
 * The run workflow's side effects on the read model, the model and the tools, free of Temporal (the
 * adapter is activities/runs.ts). Each is idempotent, because Temporal may run it again after a worker
 * dies mid-way. Long calls take an AbortSignal: cancelling the run aborts them.
 */
export function createRunExecution(deps: RunExecutionDeps) {
  const { orm } = deps;

  async function transition(
    runId: string,
    patch: TransitionPatch,
    opts: StatusWriteOptions = {},
  ): Promise<AnnouncedRun | null> {
    // One statement, its own transaction (statusWrites.ts).
    const row = await applyTransition(orm.em.fork(), runId, patch);
    return announce(row, patch, opts);
  }

  // Announced even when this call found its change already made: the fan-out is idempotent, so a
  // retry after a crash between the commit and the fan-out still delivers. Whether the status is one
  // that is announced is decided by `onStatus` (domain/runs/statusAnnouncement.ts), as for the outbox.
  async function announce(
    row: StatusRow,
    patch: TransitionPatch,
    opts: StatusWriteOptions,
  ): Promise<AnnouncedRun | null> {
    if (!deps.onStatus || row.status !== patch.status) return null;
    return deps.onStatus(row, opts);
  }

  /** A step and its event: one statement, its own commit (stepWrites.ts); waits out an outage until `signal` aborts. */
  function stepWaiting(
    signal: AbortSignal,
    ...step: [string, number, StepType, StepStatus, Record<string, unknown>, TurnTokens?]
  ): Promise<void> {
    return untilDatabaseAnswers(() => writeStep(orm.em.fork(), ...step), signal);
  }

  /** A transaction that waits out a database outage (platform/database/wait.ts) until `signal` aborts. */
  function writeWaiting(signal: AbortSignal, fn: (em: EntityManager) => Promise<void>): Promise<void> {
    return untilDatabaseAnswers(() => orm.em.fork().transactional(fn), signal);
  }

  /** The tools the run's agent version lists, read from PostgreSQL (waiting out an outage until `signal` aborts). */
  function listedTools(runId: string, signal: AbortSignal): Promise<Set<string>> {
    return untilDatabaseAnswers(async () => {
      const em = orm.em.fork();
      const run = await em.findOne(Run, runId);
      if (!run) throw new RunNotExecutable('run row missing');
      const version = await findVersionDefinition(em, run.agentId, run.agentVersion);
      if (!version) throw new RunNotExecutable('agent version missing');
      return new Set(version.tools);
    }, signal);
  }

  /**
   * The model call of a turn whose hold and running step are written, and the step's outcome with the
   * turn's tokens (counted once, even when a retry repeats the write: stepWrites.ts) in one statement.
   */
  async function completeTurn(
    runId: string,
    index: number,
    req: ModelTurnRequest,
    listed: ReadonlySet<string>,
    signal: AbortSignal,
  ): Promise<TurnResult> {
    const result = await deps.models.turn(
      {
        modelId: req.modelId,
        instructions: req.instructions,
        runInput: req.input,
        messages: req.messages,
        tools: req.tools,
      },
      signal,
    );
    const refused = result.kind === 'tool_calls' ? refusedCall(result.toolCalls, listed) : undefined;
    const refusal = refused && new ToolNotAllowed(refused.name);
    await stepWaiting(
      signal,
      runId,
      index,
      'model',
      result.kind === 'fail' || refusal ? 'failed' : 'succeeded',
      { result: result.kind, usage: result.usage, ...(refusal ? { error: refusal.message } : {}) },
      result.usage,
    );
    if (refusal) throw refusal;
    return result;
  }

  return {
    /**
     * Loads what the run executes and moves it queued → running (never announced: docs/api/webhooks.md). Returns the
     * status instead when the run already ended: its start was reported failed to the caller (the API
     * could not confirm it in time), so it must not run behind the caller's back.
     */
    async startRun(runId: string): Promise<RunPlan | { endedAs: RunStatus }> {
      // One statement moves it (only from `queued`, only when its agent version exists) and returns the row;
      // its version comes from the per-process cache.
      const em = orm.em.fork();
      const written = await writeStatus(em, runId, { status: 'running' }, { start: true });
      if (!written) throw new RunNotExecutable('run row missing');
      const { run } = written;
      if (TERMINAL.includes(run.status)) return { endedAs: run.status };
      // Still queued: the statement found no agent version (whatever this process has cached).
      const version = run.status === 'queued' ? null : await findVersionDefinition(em, run.agentId, run.agentVersion);
      if (!version) throw new RunNotExecutable('agent version missing');
      return {
        modelId: version.modelId,
        instructions: version.instructions,
        input: run.input,
        tools: deps.tools.specs(version.tools),
        settings: version.settings,
      };
    },

    transition,

    /** Records a step that waits on a person, or its outcome. */
    async recordStep(
      runId: string,
      index: number,
      type: StepType,
      status: StepStatus,
      detail: Record<string, unknown>,
    ): Promise<void> {
      await writeStep(orm.em.fork(), runId, index, type, status, detail);
    },

    completeTurn,

    /**
     * Executes a non-human tool call and returns its result as text for the model. A tool the agent
     * version does not list is never reached: the step fails and this rejects with ToolNotAllowed.
     */
    async runTool(runId: string, index: number, call: ToolCall, signal: AbortSignal): Promise<string> {
      const write = (status: StepStatus, detail: Record<string, unknown>) =>
        stepWaiting(signal, runId, index, 'tool', status, detail);
      if (refusedCall([call], await listedTools(runId, signal))) {
        const refusal = new ToolNotAllowed(call.name);
        await write('failed', { tool: call.name, args: call.args, error: refusal.message });
        throw refusal;
      }
      await write('running', { tool: call.name, args: call.args });
      let result: string;
      try {
        result = await deps.tools.run(call, signal, { runId, stepIndex: index });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        await write('failed', { error: message });
        // A failed tool is reported to the model as the tool result, not as a failed run.
        return JSON.stringify({ error: message });
      }
      await write('succeeded', { result });
      return result;
    },

    /**
     * Ends the run: its terminal status, output or error, and the settlement of its hold, in one
     * transaction (docs/api/billing.md: charged when it ends, once).
     */
    async finishRun(
      runId: string,
      patch: TransitionPatch,
      opts: StatusWriteOptions = {},
    ): Promise<AnnouncedRun | null> {
      const row =
        (await finishAtOnce(orm.em.fork(), deps.models, runId, patch)) ??
        (await orm.em.fork().transactional((em) => finishInTransaction(em, deps.models, runId, patch)));
      return announce(row, patch, opts);
    },
  };
}

export type RunExecution = ReturnType<typeof createRunExecution>;

/**
 * Applies a status change to the run row and stores its event (statusWrites.ts), in the caller's
 * transaction when there is one, else as one statement of its own. A repeated change (a retried
 * activity) and any change of a finished run do nothing. Returns the run as the change left it.
 */
export async function applyTransition(em: EntityManager, runId: string, patch: TransitionPatch): Promise<StatusRow> {
  const written = await writeStatus(em, runId, patch);
  if (!written) throw new Error(`run ${runId} missing`);
  return written.run;
}
