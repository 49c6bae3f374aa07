import { createOpenAIProvider, type OpenAIProviderOptions } from '../../../domain/models/openai';
import { ModelError, type TurnRequest } from '../../../domain/models/types';
import { completion, json, startChatServer, type Responder } from './chatServer';

const KEY = 'sk-test-secret-123';

type Server = Awaited<ReturnType<typeof startChatServer>>;
let server: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(respond: Responder, opts: Partial<OpenAIProviderOptions> = {}) {
  server = await startChatServer(respond);
  const provider = createOpenAIProvider({
    baseUrl: `${server.url}/v1/`,
    apiKey: KEY,
    models: [
      { name: 'gpt-test', inputPerMTokUsd: 2, outputPerMTokUsd: 8 },
      { name: 'other', inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6 },
    ],
    timeoutMs: 5000,
    ...opts,
  });
  return { provider, hits: server.hits };
}

const request = (over: Partial<TurnRequest> = {}): TurnRequest => ({
  modelId: 'openai/gpt-test',
  instructions: 'You are terse.',
  runInput: { question: 'hi' },
  messages: [],
  tools: [],
  ...over,
});

const ok: Responder = (_hit, res) => json(res, 200, completion({ content: '{"answer":42}' }));

async function rejection(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('openai provider: request format', () => {
  it('posts the chat-completions shape with the bearer key', async () => {
    const { provider, hits } = await setup(ok);
    const tool = { name: 'http_request', description: 'GET a URL', parameters: { type: 'object', properties: {} } };
    await provider.turn(
      request({
        messages: [
          { role: 'assistant', content: null, toolCalls: [{ id: 'call_a', name: 'http_request', args: { url: 'u' } }] },
          { role: 'tool', toolCallId: 'call_a', name: 'http_request', content: '{"status":200}' },
          { role: 'user', content: 'more' },
        ],
        tools: [tool],
      }),
    );
    expect(hits).toHaveLength(1);
    expect(hits[0].method).toBe('POST');
    expect(hits[0].url).toBe('/v1/chat/completions');
    expect(hits[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(hits[0].headers['content-type']).toBe('application/json');
    expect(hits[0].body).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: '{"question":"hi"}' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'http_request', arguments: '{"url":"u"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: '{"status":200}' },
        { role: 'user', content: 'more' },
      ],
      tools: [{ type: 'function', function: tool }],
    });
  });

  it('omits tools when there are none, the system message without instructions, the header without a key', async () => {
    const { provider, hits } = await setup(ok, { apiKey: undefined });
    await provider.turn(request({ instructions: null }));
    expect(hits[0].body).toEqual({ model: 'gpt-test', messages: [{ role: 'user', content: '{"question":"hi"}' }] });
    expect(hits[0].headers.authorization).toBeUndefined();
  });

  it('lists its models as openai/<name>, each with its own prices', async () => {
    const { provider } = await setup(ok);
    expect(provider.models()).toEqual([
      { id: 'openai/gpt-test', provider: 'openai', pricing: { inputPerMTokUsd: 2, outputPerMTokUsd: 8, perRunUsd: 0 } },
      {
        id: 'openai/other',
        provider: 'openai',
        pricing: { inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6, perRunUsd: 0 },
      },
    ]);
  });

  it('refuses a model that is not configured without calling the server', async () => {
    const { provider, hits } = await setup(ok);
    const err = await rejection(provider.turn(request({ modelId: 'openai/gpt-unknown' })));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.retryable).toBe(false);
    expect(hits).toHaveLength(0);
  });
});

describe('openai provider: responses', () => {
  it('maps tool calls with parsed args, invalid JSON kept as _raw', async () => {
    const { provider } = await setup((_h, res) =>
      json(
        res,
        200,
        completion(
          {
            content: 'Looking it up',
            tool_calls: [
              { id: 'call_x', type: 'function', function: { name: 'http_request', arguments: '{"url":"https://a"}' } },
              { id: 'call_y', type: 'function', function: { name: 'ask_user', arguments: '{oops' } },
            ],
          },
          { prompt_tokens: 11, completion_tokens: 7 },
          'tool_calls',
        ),
      ),
    );
    expect(await provider.turn(request())).toEqual({
      kind: 'tool_calls',
      text: 'Looking it up',
      toolCalls: [
        { id: 'call_x', name: 'http_request', args: { url: 'https://a' } },
        { id: 'call_y', name: 'ask_user', args: { _raw: '{oops' } },
      ],
      usage: { inputTokens: 11, outputTokens: 7 },
    });
  });

  it('turns JSON object content into the output, anything else into { text }', async () => {
    const contents = ['{"answer":42}', 'just words', '```json\n{"fenced":true}\n```', '[1,2]'];
    const { provider } = await setup((_h, res, n) =>
      json(res, 200, completion({ content: contents[n] }, { prompt_tokens: 100 + n, completion_tokens: 5 })),
    );
    const outputs = [];
    for (let i = 0; i < contents.length; i++) {
      const result = await provider.turn(request());
      expect(result.kind).toBe('final');
      expect(result.usage).toEqual({ inputTokens: 100 + i, outputTokens: 5 });
      outputs.push(result.kind === 'final' ? result.output : undefined);
    }
    expect(outputs).toEqual([{ answer: 42 }, { text: 'just words' }, { fenced: true }, { text: '[1,2]' }]);
  });

  it('estimates usage as ceil(chars / 4) when the response has none', async () => {
    const { provider, hits } = await setup((_h, res) => json(res, 200, completion({ content: 'abcdefghi' })));
    const result = await provider.turn(request());
    const sent = JSON.stringify(hits[0].body);
    expect(result.usage).toEqual({ inputTokens: Math.ceil(sent.length / 4), outputTokens: 3 });
  });

  it('fails the turn when the content filter stopped the answer', async () => {
    const { provider } = await setup((_h, res) =>
      json(res, 200, completion({ content: null }, { prompt_tokens: 3, completion_tokens: 0 }, 'content_filter')),
    );
    expect(await provider.turn(request())).toMatchObject({ kind: 'fail', usage: { inputTokens: 3, outputTokens: 0 } });
  });

  it('treats a 200 without choices as a retryable error', async () => {
    const { provider } = await setup((_h, res) => json(res, 200, { nothing: true }));
    const err = await rejection(provider.turn(request()));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.retryable).toBe(true);
  });
});

describe('openai provider: one HTTP call per attempt (the retry policy retries)', () => {
  it('rejects a 429 after one request, with Retry-After in seconds as retryAfterMs', async () => {
    const { provider, hits } = await setup((_h, res, n) =>
      n === 0 ? json(res, 429, { error: { message: 'slow down' } }, { 'retry-after': '7' }) : ok(_h, res, n),
    );
    const err = await rejection(provider.turn(request()));
    expect(hits).toHaveLength(1);
    expect(err).toBeInstanceOf(ModelError);
    expect(err).toMatchObject({ retryable: true, status: 429, retryAfterMs: 7000 });
    expect(err.message).toContain('slow down');
    // The next attempt is a new call: one more request, and it succeeds.
    expect(await provider.turn(request())).toMatchObject({ kind: 'final', output: { answer: 42 } });
    expect(hits).toHaveLength(2);
  });

  it('reads a Retry-After given as an HTTP date on 503', async () => {
    const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 30_000);
    const { provider, hits } = await setup((_h, res) =>
      json(res, 503, { error: { message: 'overloaded' } }, { 'retry-after': at.toUTCString() }),
    );
    const err = await rejection(provider.turn(request()));
    expect(hits).toHaveLength(1);
    expect(err).toMatchObject({ retryable: true, status: 503 });
    expect(err.message).toContain('overloaded');
    expect(err.retryAfterMs).toBeGreaterThan(25_000);
    expect(err.retryAfterMs).toBeLessThanOrEqual(31_000);
  });

  it('rejects a 500 after one request, retryable, without a delay of its own', async () => {
    const { provider, hits } = await setup((_h, res) => json(res, 500, { error: 'oops' }, { 'retry-after': '3' }));
    const err = await rejection(provider.turn(request()));
    expect(hits).toHaveLength(1);
    expect(err).toMatchObject({ retryable: true, status: 500 });
    expect(err.retryAfterMs).toBeUndefined();
  });

  it('does not retry a 400 and never reveals the key', async () => {
    const { provider, hits } = await setup((h, res) =>
      json(res, 400, { error: { message: `Incorrect API key provided: ${h.headers.authorization}` } }),
    );
    const err = await rejection(provider.turn(request()));
    expect(hits).toHaveLength(1);
    expect(err).toBeInstanceOf(ModelError);
    expect(err).toMatchObject({ retryable: false, status: 400 });
    expect(err.message).toContain('Incorrect API key provided');
    expect(err.message).not.toContain(KEY);
    expect(JSON.stringify(err)).not.toContain(KEY);
  });

  it('reports network errors as retryable', async () => {
    const { provider } = await setup(ok);
    await server!.close();
    server = undefined;
    const err = await rejection(provider.turn(request()));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/unreachable/);
  });
});

describe('openai provider: cancellation and timeouts', () => {
  const never: Responder = () => undefined;

  it('aborts the HTTP request promptly when the caller cancels', async () => {
    const { provider, hits } = await setup(never);
    const ctrl = new AbortController();
    const reason = new Error('run cancelled');
    setTimeout(() => ctrl.abort(reason), 200);
    const started = Date.now();
    const err = await rejection(provider.turn(request(), ctrl.signal));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(err).toBe(reason);
    expect(hits).toHaveLength(1);
    await hits[0].closed; // the server saw the connection go away
  });

  it('rejects at once when the signal is already aborted', async () => {
    const { provider, hits } = await setup(ok);
    const err = await rejection(provider.turn(request(), AbortSignal.abort()));
    expect(err.name).toBe('AbortError');
    expect(hits).toHaveLength(0);
  });

  it('times the request out after timeoutMs, once, as a retryable error', async () => {
    const { provider, hits } = await setup(never, { timeoutMs: 300 });
    const started = Date.now();
    const err = await rejection(provider.turn(request()));
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(300);
    expect(elapsed).toBeLessThan(2000);
    expect(err).toBeInstanceOf(ModelError);
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/timed out after 300 ms/);
    expect(hits).toHaveLength(1);
    await hits[0].closed;
  });
});
