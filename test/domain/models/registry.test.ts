import type { Config } from '../../../platform/config';
import { createModelRegistry, estimateRunCostUsd, estimateTokens } from '../../../domain/models/registry';
import { ModelError, type TurnRequest } from '../../../domain/models/types';
import { completion, json, startChatServer } from './chatServer';

const BUILTIN_PRICING = { inputPerMTokUsd: 0, outputPerMTokUsd: 0, perRunUsd: 0.001 };

const openaiConfig = (over: Partial<Config['openai']> = {}): Config['openai'] => ({
  baseUrl: 'http://127.0.0.1:9',
  apiKey: 'sk-x',
  models: [
    { name: 'gpt-a', inputPerMTokUsd: 3, outputPerMTokUsd: 15 },
    { name: 'gpt-b', inputPerMTokUsd: 0.5, outputPerMTokUsd: 1.5 },
  ],
  timeoutMs: 1000,
  ...over,
});

const request = (modelId: string, runInput: Record<string, unknown> = { a: 1 }): TurnRequest => ({
  modelId,
  instructions: null,
  runInput,
  messages: [],
  tools: [],
});

async function rejection(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('model registry', () => {
  it('lists the built-ins and the configured OpenAI models', () => {
    const registry = createModelRegistry(openaiConfig());
    expect(registry.list()).toEqual([
      { id: 'builtin/echo', provider: 'builtin', pricing: BUILTIN_PRICING },
      { id: 'builtin/scripted', provider: 'builtin', pricing: BUILTIN_PRICING },
      { id: 'builtin/copilot', provider: 'builtin', pricing: BUILTIN_PRICING },
      { id: 'builtin/tutor', provider: 'builtin', pricing: BUILTIN_PRICING },
      { id: 'openai/gpt-a', provider: 'openai', pricing: { inputPerMTokUsd: 3, outputPerMTokUsd: 15, perRunUsd: 0 } },
      {
        id: 'openai/gpt-b',
        provider: 'openai',
        pricing: { inputPerMTokUsd: 0.5, outputPerMTokUsd: 1.5, perRunUsd: 0 },
      },
    ]);
    expect(registry.get('openai/gpt-b')?.provider).toBe('openai');
    expect(registry.get('builtin/echo')?.pricing).toEqual(BUILTIN_PRICING);
    expect(registry.get('nope/x')).toBeUndefined();
  });

  it('lists only the built-ins when no OpenAI endpoint is configured', () => {
    const registry = createModelRegistry(openaiConfig({ baseUrl: undefined }));
    expect(registry.list().map((m) => m.id)).toEqual([
      'builtin/echo',
      'builtin/scripted',
      'builtin/copilot',
      'builtin/tutor',
    ]);
    expect(registry.get('openai/gpt-a')).toBeUndefined();
  });

  it('hands out copies, so a caller cannot change a price', () => {
    const registry = createModelRegistry(openaiConfig());
    registry.get('builtin/echo')!.pricing.perRunUsd = 99;
    registry.list()[0].pricing.perRunUsd = 99;
    expect(registry.get('builtin/echo')?.pricing.perRunUsd).toBe(0.001);
  });

  it('routes built-in turns without network', async () => {
    const registry = createModelRegistry(openaiConfig({ baseUrl: undefined, models: [] }));
    expect(await registry.turn(request('builtin/echo'))).toMatchObject({ kind: 'final', output: { echo: { a: 1 } } });
    expect(await registry.turn(request('builtin/scripted', { script: [{ fail: 'no' }] }))).toMatchObject({
      kind: 'fail',
      message: 'no',
    });
  });

  it('routes openai/ ids to the configured endpoint', async () => {
    const server = await startChatServer((_h, res) => json(res, 200, completion({ content: 'hello' })));
    try {
      const registry = createModelRegistry(openaiConfig({ baseUrl: server.url }));
      expect(await registry.turn(request('openai/gpt-a'))).toMatchObject({ kind: 'final', output: { text: 'hello' } });
      expect(server.hits[0].body.model).toBe('gpt-a');
    } finally {
      await server.close();
    }
  });

  it.each(['unknown/model', 'openai/gpt-zzz', 'builtin/nope'])('rejects %s as non-retryable', async (id) => {
    const err = await rejection(createModelRegistry(openaiConfig()).turn(request(id)));
    expect(err).toBeInstanceOf(ModelError);
    expect(err.retryable).toBe(false);
    expect(err.message).toContain(id);
  });

  it('says when OpenAI models are not configured', async () => {
    const registry = createModelRegistry(openaiConfig({ baseUrl: undefined }));
    const err = await rejection(registry.turn(request('openai/gpt-a')));
    expect(err).toMatchObject({ retryable: false, message: expect.stringContaining('not configured') });
  });
});

describe('cost estimates', () => {
  it('estimateTokens is ceil(chars / 4)', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
  });

  it('is perRunUsd for the built-ins (token prices are 0)', () => {
    const echo = createModelRegistry(openaiConfig()).get('builtin/echo')!;
    expect(estimateRunCostUsd(echo, { text: 'x'.repeat(1000) })).toBe(0.001);
  });

  it('adds the estimated input tokens at the input price', () => {
    const pricing = { inputPerMTokUsd: 3, outputPerMTokUsd: 15, perRunUsd: 0.01 };
    const model = { id: 'openai/m', provider: 'openai', pricing };
    const input = { text: 'y'.repeat(390) }; // JSON is 401 characters → 101 tokens
    expect(JSON.stringify(input)).toHaveLength(401);
    expect(estimateRunCostUsd(model, input)).toBeCloseTo(0.01 + (101 * 3) / 1e6, 12);
    expect(estimateRunCostUsd(model, undefined)).toBeCloseTo(0.01 + (1 * 3) / 1e6, 12);
  });
});
