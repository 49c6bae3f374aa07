import { BUILTIN_PRICING, BUILTIN_PROVIDER, withUsage, type Unmetered } from './builtin';
import { ASK_USER } from '../../workflows/agentTurn';
import type { ChatMessage, ModelInfo, ModelProvider, TurnRequest, TurnResult } from './types';

/** The id of the scripted model. */
export const SCRIPTED_MODEL_ID = 'builtin/scripted';

const INFO: ModelInfo = { id: SCRIPTED_MODEL_ID, provider: BUILTIN_PROVIDER, pricing: BUILTIN_PRICING };

/**
 * The turn index: one assistant message is appended per tool-calling turn, so counting them
 * tells which script entry comes next without any state outside the request (Temporal may replay
 * or retry the activity on another worker).
 */
export function scriptTurnIndex(messages: ChatMessage[]): number {
  return messages.filter((m) => m.role === 'assistant').length;
}

/**
 * Every `ask_user` answer so far, in order. The run stores answers JSON-encoded in the tool
 * message; anything that does not parse is kept as the raw string.
 */
export function collectAnswers(messages: ChatMessage[]): unknown[] {
  const answers: unknown[] = [];
  for (const m of messages) {
    if (m.role !== 'tool' || m.name !== ASK_USER) continue;
    try {
      answers.push(JSON.parse(m.content));
    } catch {
      answers.push(m.content);
    }
  }
  return answers;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The last tool result so far (not an `ask_user` answer), parsed as JSON when it is JSON; `null` if none. */
export function lastToolResult(messages: ChatMessage[]): unknown {
  const last = messages.filter((m) => m.role === 'tool' && m.name !== ASK_USER).at(-1);
  if (!last || last.content === null) return null;
  try {
    return JSON.parse(last.content);
  } catch {
    return last.content;
  }
}

/** Maps one script entry to a turn; ids are `call_<turn>` so a replayed turn yields the same ids. */
function playEntry(entry: unknown, turn: number, messages: ChatMessage[]): Unmetered {
  const id = `call_${turn}`;
  if (isRecord(entry)) {
    if ('ask' in entry) {
      const question = typeof entry.ask === 'string' ? entry.ask : JSON.stringify(entry.ask);
      return { kind: 'tool_calls', toolCalls: [{ id, name: ASK_USER, args: { question } }] };
    }
    if ('tool' in entry && typeof entry.tool === 'string') {
      // `argsFromLastResult`: the tool's arguments are the previous tool's result (an object), so a
      // script can hand one tool's answer to the next (docs/api/agents.md)
      const previous = entry.argsFromLastResult === true ? lastToolResult(messages) : undefined;
      const args = isRecord(previous) ? previous : isRecord(entry.args) ? entry.args : {};
      return { kind: 'tool_calls', toolCalls: [{ id, name: entry.tool, args }] };
    }
    if ('final' in entry) return { kind: 'final', output: entry.final ?? null };
    if (entry.finalToolResult === true) return { kind: 'final', output: lastToolResult(messages) };
    if ('fail' in entry) {
      return { kind: 'fail', message: typeof entry.fail === 'string' ? entry.fail : JSON.stringify(entry.fail) };
    }
  }
  // A malformed script is the model "deciding" to fail: deterministic, so a retry could not help.
  return {
    kind: 'fail',
    message: `script entry ${turn} is not one of { ask }, { tool, args }, { final }, { finalToolResult }, { fail }`,
  };
}

/**
 * `builtin/scripted` (docs/api/agents.md): replays `runInput.script`, one entry per model turn. An
 * exhausted (or missing) script ends with `{ answers: [...] }`, every `ask_user` answer in order.
 * No network, deterministic.
 */
export const scriptedProvider: ModelProvider = {
  name: BUILTIN_PROVIDER,
  inProcess: true,
  models: () => [{ ...INFO, pricing: { ...INFO.pricing } }],
  async turn(req: TurnRequest): Promise<TurnResult> {
    const script = Array.isArray(req.runInput?.script) ? (req.runInput.script as unknown[]) : [];
    const turn = scriptTurnIndex(req.messages);
    const result: Unmetered =
      turn < script.length
        ? playEntry(script[turn], turn, req.messages)
        : { kind: 'final', output: { answers: collectAnswers(req.messages) } };
    return withUsage(req, result);
  },
};
