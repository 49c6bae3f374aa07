import { ApplicationFailure, Context } from '@temporalio/activity';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { serializeRun, serializeStep } from './presenters';
import { AgentVersion } from '../../db/entities/Agent';
import { LedgerEntry } from '../../db/entities/LedgerEntry';
import { Run } from '../../db/entities/Run';
import { RunStep, type StepStatus, type StepType } from '../../db/entities/RunStep';
import { Workspace } from '../../db/entities/Workspace';
import type { Orm } from '../../db/orm';
import type { AgentSettings } from '../../db/entities/Agent';
import {
  TERMINAL_STATUSES as TERMINAL,
  type PendingAction,
  type RunError,
  type RunStatus,
} from '../../workflows/messages';
import { RunFailure } from '../../workflows/failures';
import type { RunPlan, TransitionPatch } from '../../workflows/activityTypes';
import { untilDatabaseAnswers } from '../../platform/database/wait';
import { appendRunEvent } from './events';
import { ANNOUNCED } from '../webhooks/dispatch';
import type { ModelRegistry } from '../models/registry';
import { ModelError, type ChatMessage, type ToolCall, type ToolSpec, type TurnResult } from '../models/types';
import type { ToolRegistry } from '../tools/registry';

export interface RunActivityDeps {
  orm: Orm;
  models: ModelRegistry;
  tools: ToolRegistry;
  /** Called after a change to an announced status commits: the webhook fan-out. */
  onStatus?: (run: Run) => Promise<void>;
}

/**
 * The run workflow's side effects (STYLE: a factory that receives its dependencies). Each activity is
 * idempotent, because Temporal may run it again after a worker dies mid-way.
 */
export function createRunActivities(deps: RunActivityDeps) {
  const { orm } = deps;

  async function transition(runId: string, patch: TransitionPatch): Promise<void> {
    const row = await orm.em.fork().transactional(async (em) => {
      const row = await em.findOneOrFail(Run, runId, { lockMode: LockMode.PESSIMISTIC_WRITE });
      // A replayed activity after a crash may find its change already made, and a finished run never
      // changes again: do nothing twice.
      const nextPending = patch.pendingAction === undefined ? row.pendingAction : patch.pendingAction;
      if (TERMINAL.includes(row.status)) return row;
      if (row.status === patch.status && (row.pendingAction?.id ?? null) === (nextPending?.id ?? null)) return row;
      applyPatch(row, patch);
      await em.flush();
      await appendRunEvent(em, runId, 'run.status', serializeRun(row));
      return row;
    });
    // Announced even when this call found its change already made: the fan-out is idempotent, so a
    // retry after a crash between the commit and the fan-out still delivers (spec §6).
    if (deps.onStatus && row.status === patch.status && ANNOUNCED[row.status]) await deps.onStatus(row);
  }

  function applyPatch(row: Run, patch: TransitionPatch): void {
    row.status = patch.status;
    if (patch.pendingAction !== undefined) row.pendingAction = patch.pendingAction;
    if (patch.output !== undefined) row.output = patch.output;
    if (patch.error !== undefined) row.error = patch.error;
    if (patch.status === 'running' && !row.startedAt) row.startedAt = new Date();
    if (TERMINAL.includes(patch.status)) {
      row.completedAt ??= new Date();
      row.pendingAction = null;
    }
  }

  async function upsertStep(
    em: EntityManager,
    runId: string,
    index: number,
    type: StepType,
    status: StepStatus,
    detail: Record<string, unknown>,
  ): Promise<void> {
    let step = await em.findOne(RunStep, { runId, index });
    if (!step) {
      step = new RunStep(runId, index, type, status, detail, new Date());
      em.persist(step);
    } else {
      step.status = status;
      step.detail = { ...step.detail, ...detail };
    }
    if (status !== 'running' && status !== 'waiting') step.completedAt ??= new Date();
    await em.flush();
    await appendRunEvent(em, runId, 'run.step', serializeStep(step));
  }

  /** A transaction of an activity with a small retry budget: waits out a database outage (databaseWait.ts). */
  function writeWaiting(signal: AbortSignal, fn: (em: EntityManager) => Promise<void>): Promise<void> {
    return untilDatabaseAnswers(() => orm.em.fork().transactional(fn), signal);
  }

  return {
    /**
     * Loads what the run executes and moves it queued → running (no webhook: spec §3). Returns the
     * status instead when the run already ended: its start was reported failed to the caller (the API
     * could not confirm it in time), so it must not run behind the caller's back.
     */
    async startRun(runId: string): Promise<RunPlan | { endedAs: RunStatus }> {
      const em = orm.em.fork();
      const run = await em.findOne(Run, runId);
      if (!run)
        throw ApplicationFailure.create({
          type: RunFailure.agentMissing,
          message: 'run row missing',
          nonRetryable: true,
        });
      if (TERMINAL.includes(run.status)) return { endedAs: run.status };
      const version = await em.findOne(AgentVersion, { agent: run.agentId, version: run.agentVersion });
      if (!version) {
        throw ApplicationFailure.create({
          type: RunFailure.agentMissing,
          message: 'agent version missing',
          nonRetryable: true,
        });
      }
      if (run.status === 'queued') await transition(runId, { status: 'running' });
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
      await orm.em.fork().transactional((em) => upsertStep(em, runId, index, type, status, detail));
    },

    /**
     * One model turn. Cancelling the run aborts the HTTP call through the activity's cancellation
     * signal. The step writes around the call wait out a database outage inside the attempt
     * (untilDatabaseAnswers), so the model's 3 attempts are spent on the model alone.
     */
    async modelTurn(
      runId: string,
      index: number,
      req: {
        modelId: string;
        instructions: string | null;
        input: Record<string, unknown>;
        messages: ChatMessage[];
        tools: ToolSpec[];
      },
    ): Promise<TurnResult> {
      return withHeartbeat(async (signal) => {
        const write = (fn: (em: EntityManager) => Promise<void>) => writeWaiting(signal, fn);
        await write((em) => upsertStep(em, runId, index, 'model', 'running', { modelId: req.modelId }));
        let result: TurnResult;
        try {
          result = await deps.models.turn(
            {
              modelId: req.modelId,
              instructions: req.instructions,
              runInput: req.input,
              messages: req.messages,
              tools: req.tools,
            },
            signal,
          );
        } catch (err) {
          if (err instanceof ModelError && !err.retryable) {
            throw ApplicationFailure.create({ type: RunFailure.modelError, message: err.message, nonRetryable: true });
          }
          throw err;
        }
        await write(async (em) => {
          // Count a turn's tokens once even if this activity is retried after the update committed.
          const step = await em.findOne(RunStep, { runId, index });
          if (step && step.status === 'running') {
            await em
              .getConnection()
              .execute(
                'update runs set input_tokens = input_tokens + ?, output_tokens = output_tokens + ? where id = ?',
                [result.usage.inputTokens, result.usage.outputTokens, runId],
                'run',
                em.getTransactionContext(),
              );
          }
          await upsertStep(em, runId, index, 'model', result.kind === 'fail' ? 'failed' : 'succeeded', {
            result: result.kind,
            usage: result.usage,
          });
        });
        return result;
      });
    },

    /** Executes a non-human tool call and returns its result as text for the model. */
    async runTool(runId: string, index: number, call: ToolCall): Promise<string> {
      return withHeartbeat(async (signal) => {
        const write = (status: StepStatus, detail: Record<string, unknown>) =>
          writeWaiting(signal, (em) => upsertStep(em, runId, index, 'tool', status, detail));
        await write('running', { tool: call.name, args: call.args });
        let result: string;
        try {
          result = await deps.tools.run(call, signal);
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          await write('failed', { error: message });
          // A failed tool is reported to the model as the tool result, not as a failed run.
          return JSON.stringify({ error: message });
        }
        await write('succeeded', { result });
        return result;
      });
    },

    /**
     * Ends the run: terminal status, output or error, and the charge (CONTRACT §8: charged when it
     * ends, one ledger row per charge). The ledger's unique run id makes a retried call charge once.
     */
    async finishRun(runId: string, patch: TransitionPatch): Promise<void> {
      await orm.em.fork().transactional(async (em) => {
        const run = await em.findOneOrFail(Run, runId);
        const charged = await em.count(LedgerEntry, { runId });
        if (charged > 0) return;
        const model = deps.models.get(
          (await em.findOneOrFail(AgentVersion, { agent: run.agentId, version: run.agentVersion })).modelId,
        );
        const pricing = model?.pricing ?? { perRunUsd: 0, inputPerMTokUsd: 0, outputPerMTokUsd: 0 };
        // The per-run price applies once the run started; tokens are charged as used.
        const perRun = run.startedAt ? pricing.perRunUsd : 0;
        const costMicros = Math.round(
          (perRun + (run.inputTokens * pricing.inputPerMTokUsd + run.outputTokens * pricing.outputPerMTokUsd) / 1e6) *
            1e6,
        );
        run.costMicros = costMicros;
        const workspace = await em.findOneOrFail(Workspace, run.workspaceId, { lockMode: LockMode.PESSIMISTIC_WRITE });
        workspace.creditBalanceMicros -= costMicros;
        const entry = new LedgerEntry(workspace, 'charge', -costMicros, `Run ${runId}`);
        entry.runId = runId;
        entry.apiKeyId = run.apiKeyId;
        em.persist(entry);
        await em.flush();
      });
      await transition(runId, patch);
    },
  };
}

export type RunActivities = ReturnType<typeof createRunActivities>;

/**
 * Runs an activity body while heartbeating every second: a dead worker is noticed within the
 * heartbeat timeout, and a cancel reaches the body through `signal` (heartbeats carry it).
 */
async function withHeartbeat<T>(body: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctx = Context.current();
  const beat = setInterval(() => ctx.heartbeat(), 1000);
  try {
    return await body(ctx.cancellationSignal);
  } finally {
    clearInterval(beat);
  }
}
