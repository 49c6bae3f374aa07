import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../../platform/config';
import { createModelRegistry } from '../../../domain/models/registry';
import type { TurnRequest } from '../../../domain/models/types';
import { json, startChatServer } from './chatServer';

// The copilots on a real model (SVC_ASSISTANT_MODEL): the prompt sent, and the parsing of answers in the exact
// chat.completions wire format (recorded/*.json), good and bad, served by a real HTTP server on 127.0.0.1.
const recorded = (name: string): unknown =>
  JSON.parse(readFileSync(join(__dirname, 'recorded', `${name}.json`), 'utf8')) as unknown;

type Server = Awaited<ReturnType<typeof startChatServer>>;
let server: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function registryAnswering(fixture: string) {
  server = await startChatServer((_hit, res) => json(res, 200, recorded(fixture)));
  const config: Config['openai'] = {
    baseUrl: `${server.url}/v1`,
    apiKey: 'sk-test',
    models: [{ name: 'helper', inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6 }],
    timeoutMs: 5000,
    assistantModel: 'openai/helper',
  };
  return { registry: createModelRegistry(config), hits: server.hits };
}

const agentTurn = (message: string): TurnRequest => ({
  modelId: 'builtin/copilot',
  instructions: 'Help the workspace with its agents and data sources.',
  runInput: {
    copilot: 'agent',
    agent: { name: 'Helper', modelId: 'builtin/echo', tools: [], hasInstructions: false },
    message,
  },
  messages: [],
  tools: [],
});

const dataSourceTurn = (message: string): TurnRequest => ({
  modelId: 'builtin/copilot',
  instructions: null,
  runInput: {
    copilot: 'data_source',
    dataSource: { name: 'Shop', type: 'postgres' },
    objects: ['orders', 'items'],
    message,
  },
  messages: [],
  tools: [],
});

describe('copilots on the assistant model', () => {
  it('sends the copilot prompt and the turn input to the assistant model, and takes its proposal', async () => {
    const { registry, hits } = await registryAnswering('agent-proposal');
    const result = await registry.turn(agentTurn('Please make it answer in French'));
    expect(hits).toHaveLength(1);
    expect(hits[0].url).toBe('/v1/chat/completions');
    expect(hits[0].body.model).toBe('helper');
    expect(hits[0].body.tools).toBeUndefined();
    const [system, user] = hits[0].body.messages;
    expect(system.role).toBe('system');
    expect(system.content).toContain('ONE JSON object');
    expect(system.content).toContain('"proposal"');
    expect(JSON.parse(user.content)).toMatchObject({ copilot: 'agent', message: 'Please make it answer in French' });
    expect(result).toEqual({
      kind: 'final',
      output: {
        reply: 'I suggest answering in French. Accept the proposal to apply it.',
        proposal: {
          changes: { instructions: 'Always answer in French.' },
          rationale: 'The person asked for answers in French.',
        },
      },
      usage: { inputTokens: 231, outputTokens: 48 },
    });
  });

  it('takes a reply without a proposal as it is', async () => {
    const { registry } = await registryAnswering('agent-describe');
    expect(await registry.turn(agentTurn('What is this agent?'))).toMatchObject({
      kind: 'final',
      output: { reply: 'The agent Helper uses builtin/echo with no tools.' },
    });
  });

  it('reads a fenced structured read of a data source, never SQL', async () => {
    const { registry, hits } = await registryAnswering('data-source-read');
    const result = await registry.turn(dataSourceTurn('Show me 5 open orders'));
    expect(hits[0].body.messages[0].content).toContain('never write SQL');
    expect(result).toEqual({
      kind: 'final',
      output: {
        reply: 'Reading the open orders.',
        read: { object: 'orders', limit: 5, where: [{ column: 'status', op: 'eq', value: 'open' }] },
      },
      usage: { inputTokens: 254, outputTokens: 61 },
    });
  });

  it('answers by the rules when the model invents an object, counting the tokens it used', async () => {
    const { registry } = await registryAnswering('data-source-invented');
    const result = await registry.turn(dataSourceTurn('first 3 items please'));
    expect(result.kind).toBe('final');
    expect(result.kind === 'final' && result.output).toEqual({
      reply: 'Reading items.',
      read: { object: 'items', limit: 3 },
    });
    expect(result.usage.inputTokens).toBeGreaterThan(240);
    expect(result.usage.outputTokens).toBeGreaterThan(22);
  });

  it('answers by the rules when the model writes prose instead of the JSON shape', async () => {
    const { registry } = await registryAnswering('agent-prose');
    const result = await registry.turn(agentTurn('change the instructions to "Answer in French"'));
    expect(result.kind === 'final' && result.output).toMatchObject({
      proposal: { changes: { instructions: 'Answer in French' } },
    });
  });

  it("prices builtin/copilot at the assistant model's tokens plus the per-run price, as a network model", async () => {
    const { registry } = await registryAnswering('agent-describe');
    expect(registry.get('builtin/copilot')?.pricing).toEqual({
      inputPerMTokUsd: 0.15,
      outputPerMTokUsd: 0.6,
      perRunUsd: 0.001,
    });
    expect(registry.inProcess('builtin/copilot')).toBe(false);
    expect(createModelRegistry({ baseUrl: undefined, models: [], timeoutMs: 1000 }).inProcess('builtin/copilot')).toBe(
      true,
    );
  });
});
