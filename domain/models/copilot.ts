import { RE2JS } from 're2js';
import { BUILTIN_PRICING, BUILTIN_PROVIDER, withUsage } from './builtin';
import type { ModelInfo, ModelProvider, TurnRequest, TurnResult } from './types';

/** The id of the copilots' model. */
export const COPILOT_MODEL_ID = 'builtin/copilot';

const INFO: ModelInfo = { id: COPILOT_MODEL_ID, provider: BUILTIN_PROVIDER, pricing: BUILTIN_PRICING };

type Input = Record<string, unknown>;

// The rules read the caller's message with patterns whose whitespace runs can trade characters, which costs
// a backtracking engine quadratic time or worse on a long message; RE2 matches in linear time with the same
// leftmost-first groups (docs/architecture.md#regular-expressions). SPACE is JavaScript's \s, which RE2 spells out.
const SPACE =
  '[\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}]';
const linear = (pattern: string) => RE2JS.compile(pattern.replaceAll('\\s', SPACE), RE2JS.CASE_INSENSITIVE);
const INSTRUCTIONS = linear('instructions\\s+(?:to|:)\\s*["“\']?((?s:.)+?)["”\']?\\s*$');
const WHERE = linear('\\bwhere\\s+([A-Za-z_][A-Za-z0-9_]*)\\s*(?:=|is|equals)\\s*["\']?([^"\']+?)["\']?\\s*\\??$');

/** The groups of the first match of `re` in `text`, or null. */
function exec(re: RE2JS, text: string): Array<string | null> | null {
  const m = re.matcher(text);
  if (!m.find()) return null;
  return Array.from({ length: m.groupCount() + 1 }, (_v, i) => m.group(i));
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const rec = (v: unknown): Input => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Input) : {});

/**
 * The agent copilot's rules: "change/set the instructions to <text>" proposes those instructions,
 * "add the tool <name>" proposes the agent's tools plus that one; anything else describes the agent.
 */
function agentCopilot(input: Input): Input {
  const message = str(input.message).trim();
  const agent = rec(input.agent);
  const tools = Array.isArray(agent.tools) ? (agent.tools as string[]) : [];
  const instructions = exec(INSTRUCTIONS, message);
  if (instructions) {
    return {
      reply: `I suggest changing the instructions to "${instructions[1]}". Accept the proposal to apply it.`,
      proposal: { changes: { instructions: instructions[1] }, rationale: `Asked in the agent copilot: ${message}` },
    };
  }
  const tool = /add\s+(?:the\s+)?tool\s+["'`]?([a-z_]+)/i.exec(message);
  if (tool) {
    return {
      reply: `I suggest adding the tool ${tool[1]}. Accept the proposal to apply it.`,
      proposal: {
        changes: { tools: [...new Set([...tools, tool[1]])] },
        rationale: `Asked in the agent copilot: ${message}`,
      },
    };
  }
  return {
    reply:
      `The agent "${str(agent.name)}" uses ${str(agent.modelId)} with ${tools.length ? `the tools ${tools.join(', ')}` : 'no tools'} ` +
      `and ${agent.hasInstructions ? 'instructions (GET /v1/agents/{id} shows them)' : 'no instructions'}. ` +
      'Ask me to "change the instructions to …" or to "add the tool …".',
  };
}

/**
 * The data-source copilot's rules: the object named in the question (the longest name that appears),
 * "first N"/"top N" as the limit (10 otherwise), "where <column> = <value>" as a filter. The answer is
 * a structured read, never SQL; the API executes it (docs/api/copilots.md).
 */
function dataSourceCopilot(input: Input): Input {
  const question = str(input.message).trim();
  const objects = (Array.isArray(input.objects) ? (input.objects as unknown[]) : []).map(str).filter(Boolean);
  const lower = question.toLowerCase();
  const object = objects.filter((o) => lower.includes(o.toLowerCase())).sort((a, b) => b.length - a.length)[0];
  if (!object) {
    return {
      reply: objects.length
        ? `Which of these do you mean: ${objects.join(', ')}? Name one in your question.`
        : 'This data source has nothing to read.',
    };
  }
  const read: Input = { object, limit: 10 };
  const limit = /\b(?:first|top|last)\s+(\d{1,3})\b/i.exec(question);
  if (limit) read.limit = Math.min(1000, Math.max(1, Number(limit[1])));
  const where = exec(WHERE, question);
  if (where) {
    const value = /^-?\d+(\.\d+)?$/.test(where[2] ?? '') ? Number(where[2]) : where[2];
    read.where = [{ column: where[1], op: 'eq', value }];
  }
  return { reply: `Reading ${object}.`, read };
}

/**
 * `builtin/copilot` (docs/api/copilots.md): the model of the workspace's copilot agents. It reads the
 * run input a copilot turn gives it (`copilot: "agent" | "data_source"`, the message and what the
 * copilot is about) and answers by fixed rules. No network, deterministic.
 */
export const copilotProvider: ModelProvider = {
  name: BUILTIN_PROVIDER,
  inProcess: true,
  models: () => [{ ...INFO, pricing: { ...INFO.pricing } }],
  async turn(req: TurnRequest): Promise<TurnResult> {
    const input = req.runInput ?? {};
    const output = input.copilot === 'data_source' ? dataSourceCopilot(input) : agentCopilot(input);
    return withUsage(req, { kind: 'final', output });
  },
};
