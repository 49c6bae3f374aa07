import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../../platform/config';
import { modelJudge } from '../../../domain/evals/judge';
import { createModelRegistry } from '../../../domain/models/registry';
import type { TurnRequest } from '../../../domain/models/types';
import { json, startChatServer } from './chatServer';

// The tutor and the eval judge on the assistant model (SVC_ASSISTANT_MODEL): the prompt sent, and the parsing
// of answers in the chat.completions wire format, good and bad, served by a real HTTP server on 127.0.0.1. The
// answers (recorded/tutor-*, judge-*, proposal-*) are what LLMock, a real OpenAI-compatible server, sent for
// that content (docs/testing.md). Drafted proposals: test/proposals/proposals.test.ts.
const recorded = (name: string): unknown =>
  JSON.parse(readFileSync(join(__dirname, 'recorded', `${name}.json`), 'utf8')) as unknown;

type Server = Awaited<ReturnType<typeof startChatServer>>;
let server: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const openai = (url: string, assistantModel?: string): Config['openai'] => ({
  baseUrl: `${url}/v1`,
  apiKey: 'sk-test',
  models: [{ name: 'helper', inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6 }],
  timeoutMs: 5000,
  assistantModel,
});

/** A registry whose assistant model is served `fixture` (or the status, for a failing provider). */
async function registryAnswering(fixture: string | number, assistantModel: string | null = 'openai/helper') {
  server = await startChatServer((_hit, res) =>
    typeof fixture === 'number'
      ? json(res, fixture, { error: { message: 'upstream trouble', type: 'server_error' } })
      : json(res, 200, recorded(fixture)),
  );
  return { registry: createModelRegistry(openai(server.url, assistantModel ?? undefined)), hits: server.hits };
}

const tutorTurn = (message: string, transcript: unknown[] = []): TurnRequest => ({
  modelId: 'builtin/tutor',
  instructions: 'Teach primary-school maths with small numbers.',
  runInput: { topic: 'fractions', channel: 'tutor', subject: 'fractions', transcript, message },
  messages: [],
  tools: [],
});

describe('the tutor on the assistant model', () => {
  it("sends the tutor prompt with the agent's instructions and takes the reply", async () => {
    const { registry, hits } = await registryAnswering('tutor-reply');
    const result = await registry.turn(tutorTurn('What is 1/2 + 1/4?'));
    expect(hits).toHaveLength(1);
    expect(hits[0].body.model).toBe('helper');
    const [system, user] = hits[0].body.messages;
    expect(system.content).toContain('ONE JSON object');
    expect(system.content).toContain('Teach primary-school maths with small numbers.');
    expect(JSON.parse(user.content)).toMatchObject({ topic: 'fractions', message: 'What is 1/2 + 1/4?' });
    expect(result.kind === 'final' && result.output).toEqual({
      reply: 'Write both with quarters: 1/2 is 2/4, so 2/4 + 1/4 = 3/4. What is 1/3 + 1/3?',
    });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(registry.inProcess('builtin/tutor')).toBe(false);
  });

  it('answers by the rules when the model writes prose, counting its tokens', async () => {
    const { registry } = await registryAnswering('tutor-prose');
    const result = await registry.turn(tutorTurn('I think it is 2/6', [{ role: 'user', text: 'hi' }]));
    expect(result.kind === 'final' && result.output).toEqual({
      reply: 'You said: "I think it is 2/6". Can you explain that in your own words, with an example from fractions?',
    });
    expect(result.usage.outputTokens).toBeGreaterThan(20);
  });

  it('keeps its rules without an assistant model, with no network', async () => {
    const registry = createModelRegistry({ baseUrl: undefined, models: [], timeoutMs: 1000 });
    expect(registry.assistant()).toBeUndefined();
    expect(registry.inProcess('builtin/tutor')).toBe(true);
    const result = await registry.turn(tutorTurn('hello'));
    expect(result.kind === 'final' && result.output).toEqual({
      reply: "Let's study fractions. What do you already know about it?",
    });
  });
});

describe('the eval judge on the assistant model', () => {
  it('grades with the assistant model even for an agent on a builtin model, saying why', async () => {
    const { registry, hits } = await registryAnswering('judge-score');
    const judge = modelJudge(registry, 'builtin/echo');
    expect(await judge({ answer: 'Paris' }, { answer: 'Paris, France' })).toEqual({
      score: 0.75,
      detail: 'judge: openai/helper scored 0.75: The city is right but the country is missing.',
    });
    expect(hits[0].body.model).toBe('helper');
    expect(hits[0].body.messages[0].content).toContain('You grade an AI agent');
    expect(JSON.parse(hits[0].body.messages[1].content)).toEqual({
      output: { answer: 'Paris' },
      expected: { answer: 'Paris, France' },
    });
  });

  it('scores 0 with a clear detail when the grade is out of bounds or the provider fails', async () => {
    const bad = await registryAnswering('judge-out-of-range');
    expect(await modelJudge(bad.registry, 'builtin/echo')('a', 'b')).toEqual({
      score: 0,
      detail: expect.stringMatching(/^judge: openai\/helper gave an answer of the wrong shape at score: /),
    });
    await server?.close();
    const failing = await registryAnswering(500);
    expect(await modelJudge(failing.registry, 'builtin/echo')('a', 'b')).toEqual({
      score: 0,
      detail: expect.stringContaining(
        'judge: openai/helper failed: model provider answered HTTP 500: upstream trouble',
      ),
    });
  });

  it('without an assistant model grades builtin agents by equality and real ones with their own model', async () => {
    const { registry, hits } = await registryAnswering('judge-score', null);
    expect(await modelJudge(registry, 'builtin/echo')({ a: 1 }, { a: 1 })).toEqual({
      score: 1,
      detail: 'judge (builtin model): the output equals the expected one',
    });
    expect(hits).toHaveLength(0);
    expect((await modelJudge(registry, 'openai/helper')('x', 'y')).score).toBe(0.75);
    expect(hits).toHaveLength(1);
  });
});
