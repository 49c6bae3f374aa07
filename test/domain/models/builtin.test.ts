import { echoProvider } from '../../../domain/models/echo';
import { scriptedProvider } from '../../../domain/models/scripted';
import type { ChatMessage, ModelProvider, TurnRequest, TurnResult } from '../../../domain/models/types';

const req = (modelId: string, runInput: Record<string, unknown>, messages: ChatMessage[] = []): TurnRequest => ({
  modelId,
  instructions: 'Be brief.',
  runInput,
  messages,
  tools: [],
});

/** Usage of a built-in: ceil(chars / 4) of the serialized request (instructions + input + messages) and result. */
function expectedUsage(r: TurnRequest, result: TurnResult) {
  const { usage: _usage, ...written } = result;
  const read = (r.instructions ?? '') + JSON.stringify(r.runInput) + JSON.stringify(r.messages);
  return { inputTokens: Math.ceil(read.length / 4), outputTokens: Math.ceil(JSON.stringify(written).length / 4) };
}

/**
 * Plays a run the way the workflow does: history grows by one assistant message per tool-calling
 * turn plus one tool message per call; ask_user answers are stored JSON-encoded.
 */
async function play(provider: ModelProvider, runInput: Record<string, unknown>, answers: unknown[] = []) {
  const messages: ChatMessage[] = [];
  const turns: TurnResult[] = [];
  const queue = [...answers];
  for (let i = 0; i < 20; i++) {
    const request = req('builtin/scripted', runInput, structuredClone(messages));
    const result = await provider.turn(request);
    expect(result.usage).toEqual(expectedUsage(request, result));
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    turns.push(result);
    if (result.kind !== 'tool_calls') return { turns, messages, last: result };
    messages.push({ role: 'assistant', content: result.text ?? null, toolCalls: result.toolCalls });
    for (const call of result.toolCalls) {
      const content = call.name === 'ask_user' ? JSON.stringify(queue.shift()) : JSON.stringify({ ok: call.name });
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content });
    }
  }
  throw new Error('script did not end');
}

describe('builtin/echo', () => {
  it('ends on the first turn with { echo: input } and non-zero usage', async () => {
    const request = req('builtin/echo', { hello: 'world', n: [1, 2] });
    const result = await echoProvider.turn(request);
    expect(result).toEqual({
      kind: 'final',
      output: { echo: { hello: 'world', n: [1, 2] } },
      usage: expect.any(Object),
    });
    expect(result.usage).toEqual(expectedUsage(request, result));
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it('reports non-zero usage even for an empty input and no instructions', async () => {
    const result = await echoProvider.turn({ ...req('builtin/echo', {}), instructions: null });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
  });

  it('lists itself with the built-in pricing', () => {
    const pricing = { inputPerMTokUsd: 0, outputPerMTokUsd: 0, perRunUsd: 0.001 };
    expect(echoProvider.models()).toEqual([{ id: 'builtin/echo', provider: 'builtin', pricing }]);
  });
});

describe('builtin/scripted', () => {
  it('plays ask → answer → tool → final', async () => {
    const script = [
      { ask: 'What is your name?' },
      { tool: 'http_request', args: { url: 'https://example.com' } },
      { final: { done: true } },
    ];
    const { turns, messages, last } = await play(scriptedProvider, { script }, ['Ada']);
    expect(turns.map((t) => t.kind)).toEqual(['tool_calls', 'tool_calls', 'final']);
    expect(turns[0]).toMatchObject({
      kind: 'tool_calls',
      toolCalls: [{ id: 'call_0', name: 'ask_user', args: { question: 'What is your name?' } }],
    });
    expect(turns[1]).toMatchObject({
      kind: 'tool_calls',
      toolCalls: [{ id: 'call_1', name: 'http_request', args: { url: 'https://example.com' } }],
    });
    expect(last).toMatchObject({ kind: 'final', output: { done: true } });
    expect(messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['"Ada"', '{"ok":"http_request"}']);
  });

  it('fails with the scripted message', async () => {
    const { last } = await play(scriptedProvider, { script: [{ ask: 'Sure?' }, { fail: 'boom' }] }, ['no']);
    expect(last).toMatchObject({ kind: 'fail', message: 'boom' });
  });

  it('ends an exhausted script with every answer in order', async () => {
    const script = [{ ask: 'one' }, { tool: 'noop' }, { ask: 'two' }, { ask: 'three' }];
    const { last, turns } = await play(scriptedProvider, { script }, ['first', { nested: 2 }, 3]);
    expect(turns).toHaveLength(5);
    expect(last).toMatchObject({ kind: 'final', output: { answers: ['first', { nested: 2 }, 3] } });
    expect(turns[1]).toMatchObject({ toolCalls: [{ id: 'call_1', name: 'noop', args: {} }] });
  });

  it('keeps an answer that is not JSON as the raw string', async () => {
    const messages: ChatMessage[] = [
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_0', name: 'ask_user', args: { question: 'q' } }] },
      { role: 'tool', toolCallId: 'call_0', name: 'ask_user', content: 'plain words' },
    ];
    const result = await scriptedProvider.turn(req('builtin/scripted', { script: [{ ask: 'q' }] }, messages));
    expect(result).toMatchObject({ kind: 'final', output: { answers: ['plain words'] } });
  });

  it('ends at once with no answers when there is no script', async () => {
    const { turns, last } = await play(scriptedProvider, { other: 1 });
    expect(turns).toHaveLength(1);
    expect(last).toMatchObject({ kind: 'final', output: { answers: [] } });
  });

  it('final null is an output, a malformed entry fails', async () => {
    expect(await scriptedProvider.turn(req('builtin/scripted', { script: [{ final: null }] }))).toMatchObject({
      kind: 'final',
      output: null,
    });
    const bad = await scriptedProvider.turn(req('builtin/scripted', { script: ['nonsense'] }));
    expect(bad).toMatchObject({ kind: 'fail', message: expect.stringContaining('script entry 0') });
  });

  it('is deterministic: the same request gives the same result, ids included', async () => {
    const script = [{ ask: 'a' }, { tool: 't', args: { x: 1 } }];
    const first = await play(scriptedProvider, { script }, ['x']);
    const second = await play(scriptedProvider, { script }, ['x']);
    expect(second.turns).toEqual(first.turns);
    const ids = first.turns.flatMap((t) => (t.kind === 'tool_calls' ? t.toolCalls.map((c) => c.id) : []));
    expect(ids).toEqual(['call_0', 'call_1']);
  });
});
