import { createOpenAIProvider } from '../../../domain/models/openai';
import { createModelRegistry } from '../../../domain/models/registry';
import { ModelError, type TurnRequest } from '../../../domain/models/types';
import { startLlmock, type LlmockServer } from '../../helpers/llmockServer';

// The model provider against a real OpenAI-compatible server this project did not write: LLMock from PyPI
// (scripts/llmock.sh), on 127.0.0.1, each answer scripted through its control API (docs/testing.md).
describe('the OpenAI provider against LLMock', () => {
  let llmock: LlmockServer;
  beforeAll(async () => {
    llmock = await startLlmock();
  }, 60_000);
  afterAll(() => llmock?.stop());

  const provider = () =>
    createOpenAIProvider({
      baseUrl: llmock.baseUrl,
      apiKey: 'sk-llmock-test',
      models: [{ name: 'gpt-4o-mini', inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6 }],
      timeoutMs: 10_000,
    });

  const request = (over: Partial<TurnRequest> = {}): TurnRequest => ({
    modelId: 'openai/gpt-4o-mini',
    instructions: 'You fetch pages when asked.',
    runInput: { question: 'What is on https://example.com?' },
    messages: [],
    tools: [
      {
        name: 'http_request',
        description: 'GET or POST a public URL',
        parameters: {
          type: 'object',
          properties: { url: { type: 'string' }, method: { type: 'string' } },
          required: ['url'],
        },
      },
    ],
    ...over,
  });

  it('reads a tool call with its arguments and the usage the server reports', async () => {
    await llmock.queue({
      type: 'reply',
      tool_calls: [{ name: 'http_request', arguments: { url: 'https://example.com', method: 'GET' } }],
    });
    const turn = await provider().turn(request());
    expect(turn).toMatchObject({
      kind: 'tool_calls',
      toolCalls: [
        { id: expect.any(String), name: 'http_request', args: { url: 'https://example.com', method: 'GET' } },
      ],
    });
    expect(turn.usage.inputTokens).toBeGreaterThan(0);
  });

  it('reads a final JSON answer after the tool result, with the usage the server reports', async () => {
    await llmock.queue({ type: 'reply', text: '{"answer": "Example Domain"}' });
    const turn = await provider().turn(
      request({
        messages: [
          {
            role: 'assistant',
            content: null,
            toolCalls: [{ id: 'call_1', name: 'http_request', args: { url: 'https://example.com' } }],
          },
          {
            role: 'tool',
            toolCallId: 'call_1',
            name: 'http_request',
            content: '{"status":200,"body":"<h1>Example Domain</h1>"}',
          },
        ],
      }),
    );
    expect(turn.kind === 'final' && turn.output).toEqual({ answer: 'Example Domain' });
    expect(turn.usage.inputTokens).toBeGreaterThan(0);
    expect(turn.usage.outputTokens).toBeGreaterThan(0);
  });

  it("turns a 429 into a retryable ModelError whose delay is the server's Retry-After", async () => {
    await llmock.queue({ type: 'fail', status: 429, retry_after: 2.5, message: 'Rate limit reached for requests' });
    const err = await provider()
      .turn(request())
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(ModelError);
    expect(err).toMatchObject({ retryable: true, status: 429, retryAfterMs: 2500 });
    expect((err as ModelError).message).toContain('Rate limit reached for requests');
    expect((err as ModelError).message).not.toContain('sk-llmock-test');
  });

  it('drives the agent copilot as the assistant model', async () => {
    const registry = createModelRegistry({
      baseUrl: llmock.baseUrl,
      apiKey: 'sk-llmock-test',
      models: [{ name: 'gpt-4o-mini', inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6 }],
      timeoutMs: 10_000,
      assistantModel: 'openai/gpt-4o-mini',
    });
    await llmock.queue({
      type: 'reply',
      text: JSON.stringify({
        reply: 'I suggest adding http_request.',
        proposal: { changes: { tools: ['http_request'] }, rationale: 'It fetches pages.' },
      }),
    });
    const turn = await registry.turn({
      modelId: 'builtin/copilot',
      instructions: null,
      runInput: {
        copilot: 'agent',
        agent: { name: 'Reader', modelId: 'builtin/echo', tools: [], hasInstructions: false },
        message: 'Let it read web pages',
      },
      messages: [],
      tools: [],
    });
    expect(turn.kind === 'final' && turn.output).toEqual({
      reply: 'I suggest adding http_request.',
      proposal: { changes: { tools: ['http_request'] }, rationale: 'It fetches pages.' },
    });
    expect(turn.usage.outputTokens).toBeGreaterThan(0);
  });
});
