import type { EntityManager } from '@mikro-orm/postgresql';
import type { RunStart, TurnDecision } from '../../workflows/activityTypes';
import { ASK_USER, type ChatMessage, type ToolCall } from '../../workflows/agentTurn';
import type { InputPayload } from '../../workflows/messages';
import { untilDatabaseAnswers } from '../../platform/database/wait';
import { appendMessage, findMessage, findToolCall } from './conversation';
import { writeStep } from './stepWrites';
import type { RunExecution, RunExecutionDeps } from './execution';
import { startTurn } from './turnStart';

/**
 * The run workflow's turns by id (docs/api/runs.md#how-a-run-executes-operators): the workflow passes
 * the run id, the step index and `at`, the index in the run's conversation (domain/runs/conversation.ts)
 * where the message a turn, a tool call or an answer produces goes. These load what they need from
 * PostgreSQL, store what they produce there, and return only what the workflow decides with. Tool
 * calls go through execution.ts `runTool`. Idempotent: a retry finds the message its attempt before stored and
 * returns that instead of calling the model or the tool again.
 */
export function createStoredTurns(deps: RunExecutionDeps, run: RunExecution) {
  const { orm } = deps;
  // Inside a model or tool call's attempt, reads and writes wait out a database outage until `signal`
  // aborts (platform/database/wait.ts), so the call's few attempts are spent on the call alone.
  const read = <T>(signal: AbortSignal, fn: (em: EntityManager) => Promise<T>) =>
    untilDatabaseAnswers(() => fn(orm.em.fork()), signal);
  const write = <T>(signal: AbortSignal, fn: (em: EntityManager) => Promise<T>) =>
    untilDatabaseAnswers(() => orm.em.fork().transactional(fn), signal);

  return {
    /** `startRun` without what stays in PostgreSQL: the workflow gets the settings, and whether its turns are in-process. */
    async beginRun(runId: string): Promise<RunStart> {
      const plan = await run.startRun(runId);
      if ('endedAs' in plan) return plan;
      return deps.models.inProcess(plan.modelId)
        ? { settings: plan.settings, turnsInProcess: true }
        : { settings: plan.settings };
    },

    /**
     * One model turn over the conversation stored before `at`; a turn that calls tools stores its
     * assistant message at `at`. Rejects with ModelError or ToolNotAllowed (execution.ts `completeTurn`).
     */
    async nextTurn(runId: string, index: number, at: number, signal: AbortSignal): Promise<TurnDecision> {
      // Two statements, no transaction (turnStart.ts); a database outage is waited out and the start tried again.
      const prepared = await read(signal, (em) => startTurn(em, deps, runId, index, at));
      if ('stored' in prepared) return storedDecision(prepared.stored);
      const result = await run.completeTurn(runId, index, prepared.request, prepared.listed, signal);
      if (result.kind === 'final') return { kind: 'final', output: result.output };
      if (result.kind === 'fail') return { kind: 'fail', message: result.message };
      const message: ChatMessage = { role: 'assistant', content: result.text ?? null, toolCalls: result.toolCalls };
      await write(signal, (em) => appendMessage(em, runId, at, message));
      return { kind: 'tool_calls', toolCalls: result.toolCalls };
    },

    /** Runs the tool call `callId` of the last turn and stores its result at `at`; returns nothing. */
    async useTool(runId: string, index: number, at: number, callId: string, signal: AbortSignal): Promise<void> {
      const call = await read(signal, async (em): Promise<ToolCall | null> => {
        if (await findMessage(em, runId, at)) return null;
        const found = await findToolCall(em, runId, at, callId);
        if (!found) throw new Error(`run ${runId} has no tool call ${callId} before message ${at}`);
        return found;
      });
      if (!call) return;
      const content = await run.runTool(runId, index, call, signal);
      await write(signal, (em) =>
        appendMessage(em, runId, at, { role: 'tool', toolCallId: call.id, name: call.name, content }),
      );
    },

    /** Stores a person's answer to `ask_user` as the tool result at `at` and completes its input step. */
    async recordAnswer(runId: string, index: number, at: number, callId: string, given: InputPayload): Promise<void> {
      const content = JSON.stringify(given.answer) ?? 'null';
      const message: ChatMessage = { role: 'tool', toolCallId: callId, name: ASK_USER, content };
      // The answer and its step's completion commit together.
      await orm.em.fork().transactional(async (em) => {
        await appendMessage(em, runId, at, message);
        await writeStep(em, runId, index, 'input', 'succeeded', { answer: given });
      });
    },
  };
}

/** The decision a stored assistant message stands for (its turn was done by an earlier attempt). */
function storedDecision(message: ChatMessage): TurnDecision {
  if (message.role !== 'assistant') throw new Error(`expected the model's message, found a ${message.role} message`);
  return { kind: 'tool_calls', toolCalls: message.toolCalls ?? [] };
}

export type StoredTurns = ReturnType<typeof createStoredTurns>;
