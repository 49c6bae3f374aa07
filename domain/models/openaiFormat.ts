import { estimateTokens } from './builtin';
import { ModelError, type ToolCall, type ToolSpec, type TurnRequest, type TurnResult } from './types';

/**
 * Translation between our JSON history and the OpenAI chat-completions wire format, kept apart
 * from the transport so both stay small and this half can be tested without a server.
 */

/** A message as chat-completions expects it. */
export type WireMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: WireToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A tool call as chat-completions sends and expects it back. */
export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/**
 * The request's `messages`: the agent's instructions as the system message, the run input
 * (JSON) as the first user message, then the run's history in order.
 */
export function mapMessages(req: TurnRequest): WireMessage[] {
  const out: WireMessage[] = [];
  if (req.instructions) out.push({ role: 'system', content: req.instructions });
  out.push({ role: 'user', content: JSON.stringify(req.runInput ?? {}) });
  for (const m of req.messages) {
    switch (m.role) {
      case 'system':
      case 'user':
        out.push({ role: m.role, content: m.content });
        break;
      case 'assistant': {
        const msg: WireMessage = { role: 'assistant', content: m.content };
        if (m.toolCalls?.length) {
          msg.tool_calls = m.toolCalls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: JSON.stringify(c.args) },
          }));
        }
        out.push(msg);
        break;
      }
      case 'tool':
        out.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
        break;
    }
  }
  return out;
}

/** The request's `tools`, in the function-calling shape. */
export function mapTools(tools: ToolSpec[]): Array<{ type: 'function'; function: ToolSpec }> {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

interface WireChoice {
  finish_reason?: string | null;
  message?: { content?: string | null; refusal?: string | null; tool_calls?: Partial<WireToolCall>[] | null };
}

interface WireCompletion {
  choices?: WireChoice[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

/** Tool arguments arrive as a JSON string; a model may write invalid JSON, which is kept as `_raw`. */
function parseArgs(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  return { _raw: text };
}

/**
 * What a ```` ``` ```` or ```` ```json ```` fence holds, trimmed, or null when `text` is not one fence. Read by
 * hand: the pattern for it lets its whitespace runs trade characters, which is quadratic on a long reply.
 */
function unfenced(text: string): string | null {
  if (text.length < 6 || !text.startsWith('```') || !text.endsWith('```')) return null;
  const inner = text.slice(3, -3);
  return (inner.slice(0, 4).toLowerCase() === 'json' ? inner.slice(4) : inner).trim();
}

/** A final answer: a JSON object (optionally in a ```json fence) is the output, anything else is `{ text }`. */
export function contentToOutput(content: string): unknown {
  try {
    const value = JSON.parse(unfenced(content.trim()) ?? content) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  } catch {
    // not JSON
  }
  return { text: content };
}

const count = (v: unknown, fallback: number): number =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback;

/**
 * Turns a chat-completions response into a {@link TurnResult}. Usage comes from the response,
 * else from `ceil(chars / 4)` (the same estimate the built-ins use). Throws a retryable {@link ModelError}
 * when the body has no `choices[0].message`.
 */
export function parseCompletion(raw: unknown, estimatedInputTokens: number): TurnResult {
  const body = (raw ?? {}) as WireCompletion;
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  const message = choice?.message;
  if (!message || typeof message !== 'object') {
    throw new ModelError('model provider returned no choices[0].message', true);
  }
  const content = typeof message.content === 'string' ? message.content : null;
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const written = (content ?? '') + calls.map((c) => (c.function?.name ?? '') + (c.function?.arguments ?? '')).join('');
  const usage = {
    inputTokens: count(body.usage?.prompt_tokens, estimatedInputTokens),
    outputTokens: count(body.usage?.completion_tokens, estimateTokens(written)),
  };

  // A filtered or refused answer is the model declining the task: the run fails (agent.model_error).
  if (choice?.finish_reason === 'content_filter') {
    return { kind: 'fail', message: "The model provider's content filter stopped the answer", usage };
  }
  if (typeof message.refusal === 'string' && message.refusal && !content && calls.length === 0) {
    return { kind: 'fail', message: `The model refused: ${message.refusal}`, usage };
  }
  if (calls.length > 0) {
    // Ids normally come from the provider; the fallback is positional, so still stable on replay.
    const toolCalls: ToolCall[] = calls.map((c, i) => ({
      id: typeof c.id === 'string' && c.id ? c.id : `call_${i}`,
      name: c.function?.name ?? '',
      args: parseArgs(c.function?.arguments),
    }));
    return { kind: 'tool_calls', toolCalls, text: content, usage };
  }
  return { kind: 'final', output: contentToOutput(content ?? ''), usage };
}
