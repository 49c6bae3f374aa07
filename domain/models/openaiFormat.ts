import type {
  ChatCompletion,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { estimateTokens } from './builtin';
import { ModelError, type ToolCall, type ToolSpec, type TurnRequest, type TurnResult } from './types';

/**
 * Translation between our JSON history and the chat-completions types of the official SDK, kept apart
 * from the transport so both stay small and this half can be tested without a server.
 */

/**
 * The request's `messages`: the agent's instructions as the system message, the run input
 * (JSON) as the first user message, then the run's history in order.
 */
export function mapMessages(req: TurnRequest): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (req.instructions) out.push({ role: 'system', content: req.instructions });
  out.push({ role: 'user', content: JSON.stringify(req.runInput ?? {}) });
  for (const m of req.messages) {
    switch (m.role) {
      case 'system':
      case 'user':
        out.push({ role: m.role, content: m.content });
        break;
      case 'assistant':
        out.push({
          role: 'assistant',
          content: m.content,
          ...(m.toolCalls?.length
            ? {
                tool_calls: m.toolCalls.map((c) => ({
                  id: c.id,
                  type: 'function' as const,
                  function: { name: c.name, arguments: JSON.stringify(c.args) },
                })),
              }
            : {}),
        });
        break;
      case 'tool':
        out.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
        break;
    }
  }
  return out;
}

/** The request's `tools`, in the function-calling shape. */
export function mapTools(tools: ToolSpec[]): ChatCompletionFunctionTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
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
export function unfenced(text: string): string | null {
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

/** A tool call as some compatible servers send it: the SDK's type, with any field possibly missing. */
interface LooseToolCall {
  id?: unknown;
  type?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Turns a chat completion into a {@link TurnResult}. Usage comes from the response, else from
 * `ceil(chars / 4)` (the same estimate the built-ins use). Compatible servers do not all fill every field
 * the SDK's type promises, so each is checked. Throws a retryable {@link ModelError} when the body has no
 * `choices[0].message`.
 */
export function parseCompletion(body: ChatCompletion | undefined, estimatedInputTokens: number): TurnResult {
  const choice = Array.isArray(body?.choices) ? body.choices[0] : undefined;
  const message = choice?.message;
  if (!message || typeof message !== 'object') {
    throw new ModelError('model provider returned no choices[0].message', true);
  }
  const content = typeof message.content === 'string' ? message.content : null;
  // Only function calls name our tools; a custom (free-text) tool call is not something we offered.
  const calls = (Array.isArray(message.tool_calls) ? (message.tool_calls as LooseToolCall[]) : []).filter(
    (c) => c && (c.type === undefined || c.type === 'function'),
  );
  const written = (content ?? '') + calls.map((c) => text(c.function?.name) + text(c.function?.arguments)).join('');
  const usage = {
    inputTokens: count(body?.usage?.prompt_tokens, estimatedInputTokens),
    outputTokens: count(body?.usage?.completion_tokens, estimateTokens(written)),
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
      name: text(c.function?.name),
      args: parseArgs(text(c.function?.arguments) || undefined),
    }));
    return { kind: 'tool_calls', toolCalls, text: content, usage };
  }
  return { kind: 'final', output: contentToOutput(content ?? ''), usage };
}
