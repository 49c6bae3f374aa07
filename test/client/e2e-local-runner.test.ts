/**
 * `@svc/client` against the REAL service: the catalogues an agent is made from, and a local runner's round trip:
 * read the agent's definition, run it outside the service, report the runs, read them back
 * (docs/api/agents.md, docs/api/runs.md#local-runs).
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError, PermissionError, Svc, ValidationError, type LocalRun } from '../../client/src/index.js';
import { AGENT_DEFINITION_FIELDS, MODEL_FIELDS, PRESET_FIELDS, TOOL_FIELDS } from '../../client/src/schema.js';
import { createKey } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { clientWorkspace, rejectionOf } from './e2e-helpers';

let h: Harness;
beforeAll(async () => {
  h = await startApi();
}, 60_000);
afterAll(() => h?.close());

const keysOf = (o: object) => Object.keys(o).sort();

const succeeded: LocalRun = {
  input: { question: 'What is 6 x 7?' },
  status: 'succeeded',
  output: { answer: 42 },
  startedAt: '2026-11-01T10:00:00Z',
  completedAt: '2026-11-01T10:00:05.250Z',
  usage: { inputTokens: 12, outputTokens: 3 },
};
const failed: LocalRun = {
  status: 'failed',
  error: { code: 'agent.tool_error', message: 'disk full' },
  startedAt: '2026-11-01T11:00:00Z',
  completedAt: '2026-11-01T11:00:01Z',
};

describe('client e2e: catalogues', () => {
  it('lists the presets, models and tools, and an agent is made from what they name', async () => {
    const { svc } = await clientWorkspace(h);
    const presets = await svc.agents.presets();
    for (const preset of presets) expect(keysOf(preset)).toEqual(keysOf(PRESET_FIELDS));
    expect(presets.find((p) => p.id === 'general-assistant')).toEqual({
      id: 'general-assistant',
      name: 'General assistant',
      description: expect.any(String),
      modelId: 'builtin/echo',
      instructions: null,
      tools: [],
      settings: { approval: 'never', review: false, maxSteps: 25 },
    });
    expect(presets.find((p) => p.id === 'reviewed-writer')?.settings).toMatchObject({
      approval: 'before_output',
      review: true,
    });

    const models = await svc.agents.models();
    for (const model of models) expect(keysOf(model)).toEqual(keysOf(MODEL_FIELDS));
    const builtin = { provider: 'builtin', pricing: { inputPerMTokUsd: 0, outputPerMTokUsd: 0, perRunUsd: 0.001 } };
    expect(models).toEqual(
      expect.arrayContaining([
        { id: 'builtin/echo', ...builtin },
        { id: 'builtin/scripted', ...builtin },
      ]),
    );

    const tools = await svc.agents.tools();
    for (const tool of tools) expect(keysOf(tool)).toEqual(keysOf(TOOL_FIELDS));
    expect(tools.find((t) => t.name === 'http_request')).toEqual({
      name: 'http_request',
      description: expect.any(String),
      parameters: expect.objectContaining({ type: 'object' }),
    });

    // the catalogues are what create accepts: the scripted preset's model and tools are listed
    const scripted = presets.find((p) => p.id === 'scripted')!;
    expect(models.map((m) => m.id)).toContain(scripted.modelId);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(scripted.tools));
    const agent = await svc.agents.create({ name: 'Fetcher', presetId: scripted.id, tools: ['http_request'] });
    expect(agent).toMatchObject({ presetId: 'scripted', modelId: scripted.modelId, tools: ['http_request'] });
  });

  it('needs agents:read', async () => {
    const { account } = await clientWorkspace(h);
    const filesOnly = new Svc({ apiKey: await createKey(h, account, ['files:read']), baseUrl: h.url });
    for (const call of [
      () => filesOnly.agents.presets(),
      () => filesOnly.agents.models(),
      () => filesOnly.agents.tools(),
    ]) {
      const err = await rejectionOf(call());
      expect(err).toBeInstanceOf(PermissionError);
      expect(err).toMatchObject({ status: 403, code: 'forbidden' });
    }
  });
});

describe('client e2e: a local runner', () => {
  it('reads the definition, reports two runs as one batch, and reads them back like any run', async () => {
    const { svc } = await clientWorkspace(h);
    const agent = await svc.agents.create({ name: 'Local', presetId: 'general-assistant', instructions: 'Be brief.' });
    const definition = await svc.agents.definition(agent.id);
    expect(definition).toEqual({
      id: agent.id,
      name: 'Local',
      version: 1,
      modelId: 'builtin/echo',
      tools: [],
      settings: agent.settings,
      instructions: 'Be brief.',
      savedReads: [],
    });
    expect(keysOf(definition)).toEqual(keysOf(AGENT_DEFINITION_FIELDS));
    await svc.agents.update(agent.id, { instructions: 'Be briefer.' });
    expect(await svc.agents.definition(agent.id)).toMatchObject({ version: 2, instructions: 'Be briefer.' });

    const report = await svc.localRuns.report({ agentId: agent.id, runs: [succeeded, failed] });
    expect(report).toEqual({
      batchId: expect.any(String),
      runs: [
        { id: expect.any(String), status: 'succeeded' },
        { id: expect.any(String), status: 'failed' },
      ],
    });
    const runIds = report.runs.map((r) => r.id);
    expect(await svc.runs.localBatch(report.batchId)).toEqual({
      id: report.batchId,
      agentId: agent.id,
      count: 2,
      createdAt: expect.any(String),
      runIds,
    });
    expect(await svc.runs.localBatches().toArray()).toEqual([
      { id: report.batchId, agentId: agent.id, count: 2, createdAt: expect.any(String) },
    ]);

    expect(await svc.runs.get(runIds[0]!)).toMatchObject({
      agentId: agent.id,
      agentVersion: 2,
      status: 'succeeded',
      input: { question: 'What is 6 x 7?' },
      output: { answer: 42 },
      error: null,
      usage: { inputTokens: 12, outputTokens: 3, costUsd: 0 }, // recorded, not charged
      startedAt: '2026-11-01T10:00:00.000Z',
      completedAt: '2026-11-01T10:00:05.250Z',
    });
    expect(await svc.runs.get(runIds[1]!)).toMatchObject({
      status: 'failed',
      input: {},
      error: { code: 'agent.tool_error', message: 'disk full' },
    });
    expect(await svc.runs.output(runIds[0]!)).toEqual({
      runId: runIds[0],
      status: 'succeeded',
      output: { answer: 42 },
    });
  });

  it('shows instructions only to a key that may run the agent', async () => {
    const { account, svc } = await clientWorkspace(h);
    const agent = await svc.agents.create({ name: 'Secretive', instructions: 'Know-how.' });
    const reader = new Svc({ apiKey: await createKey(h, account, ['agents:read']), baseUrl: h.url });
    const seen = await reader.agents.definition(agent.id);
    expect(seen).toEqual({
      id: agent.id,
      name: 'Secretive',
      version: 1,
      modelId: 'builtin/echo',
      tools: [],
      settings: agent.settings,
    });
    expect(await rejectionOf(reader.agents.definition(randomUUID()))).toBeInstanceOf(NotFoundError);
    const { svc: other } = await clientWorkspace(h);
    expect(await rejectionOf(other.agents.definition(agent.id))).toBeInstanceOf(NotFoundError);
  });

  it('records a report once per Idempotency-Key, so a repeated report is no second batch', async () => {
    const { svc } = await clientWorkspace(h);
    const agent = await svc.agents.create({ name: 'Local' });
    const idempotencyKey = randomUUID();
    const first = await svc.localRuns.report({ agentId: agent.id, runs: [succeeded] }, { idempotencyKey });
    const again = await svc.localRuns.report({ agentId: agent.id, runs: [succeeded] }, { idempotencyKey });
    expect(again).toEqual(first);
    expect((await svc.runs.localBatches().toArray()).map((b) => b.id)).toEqual([first.batchId]);
    expect((await svc.runs.list().toArray()).map((r) => r.id)).toEqual([first.runs[0]!.id]);
  });

  it('refuses a bad report whole, an unknown agent, and a key without runner:run', async () => {
    const { account, svc } = await clientWorkspace(h);
    const agent = await svc.agents.create({ name: 'Local' });
    const backwards = { ...failed, startedAt: '2026-11-01T12:00:00Z', completedAt: '2026-11-01T11:59:59Z' };
    const invalid = await rejectionOf(svc.localRuns.report({ agentId: agent.id, runs: [succeeded, backwards] }));
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid).toMatchObject({ status: 400, code: 'validation_error' });
    expect(invalid.details.issues).toEqual([expect.objectContaining({ path: 'runs' })]);
    const empty = await rejectionOf(svc.localRuns.report({ agentId: agent.id, runs: [] }));
    expect(empty).toBeInstanceOf(ValidationError);

    const unknown = await rejectionOf(svc.localRuns.report({ agentId: randomUUID(), runs: [succeeded] }));
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown).toMatchObject({ status: 404, code: 'not_found' });

    const reader = new Svc({ apiKey: await createKey(h, account, ['runs:read', 'agents:read']), baseUrl: h.url });
    const denied = await rejectionOf(reader.localRuns.report({ agentId: agent.id, runs: [succeeded] }));
    expect(denied).toBeInstanceOf(PermissionError);
    expect(denied).toMatchObject({ status: 403, code: 'forbidden' });

    // nothing of any of them was recorded
    expect(await svc.runs.localBatches().toArray()).toEqual([]);
    expect(await svc.runs.list().toArray()).toEqual([]);
  });
});
