import { randomUUID } from 'node:crypto';
import { createModelRegistry } from '../../domain/models/registry';
import { createRunExecution } from '../../domain/runs/execution';
import { createStoredTurns } from '../../domain/runs/storedTurns';
import { createToolRegistry, type ToolRegistry } from '../../domain/tools/registry';
import { loadConfig } from '../../platform/config';
import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { createAgent, createRun } from '../helpers/runs';
import { testTaskQueue } from '../helpers/worker';

/**
 * The id-based turns (domain/runs/storedTurns.ts) as Temporal retries them: an activity run again after
 * its attempt before stored its message (the worker died before reporting) neither calls the model or
 * the tool again nor appends a second message. No worker runs here: the test plays the workflow's part.
 */
describe('stored turns are idempotent', () => {
  let h: Harness;
  let auth: Record<string, string>;

  beforeAll(async () => {
    const base = loadConfig(process.env);
    // A task queue no worker polls: the run's workflow starts and waits, and this test drives the run.
    h = await startApi({ temporal: { ...base.temporal, taskQueue: testTaskQueue() } });
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write']));
  });
  afterAll(() => h?.close());

  it('calls the model and the tool once per message and stores each message once', async () => {
    const models = createModelRegistry(h.config.openai);
    let modelCalls = 0;
    const countingModels = {
      ...models,
      turn: (...args: Parameters<typeof models.turn>) => (modelCalls++, models.turn(...args)),
    };
    const real = createToolRegistry({ allowPrivate: false });
    let toolCalls = 0;
    const tools: ToolRegistry = { ...real, run: async (call) => (toolCalls++, `result of ${call.id}`) };
    const execution = createRunExecution({ orm: h.orm, models: countingModels, tools });
    const turns = createStoredTurns({ orm: h.orm, models: countingModels, tools }, execution);
    const signal = new AbortController().signal;

    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const url = `https://example.com/${randomUUID()}`;
    const run = await createRun(h, auth, {
      agentId: agent.id,
      input: { script: [{ tool: 'http_request', args: { url } }, { ask: 'name?' }] },
    });

    expect(await turns.beginRun(run.id)).toEqual({
      settings: expect.objectContaining({ maxSteps: 25 }),
      turnsInProcess: true, // builtin/scripted: its turns are local activities (workflows/runWorkflow.ts)
    });
    const first = await turns.nextTurn(run.id, 0, 0, signal);
    expect(first).toEqual({ kind: 'tool_calls', toolCalls: [{ id: 'call_0', name: 'http_request', args: { url } }] });
    expect(await turns.nextTurn(run.id, 0, 0, signal)).toEqual(first);
    expect(modelCalls).toBe(1);

    await turns.useTool(run.id, 1, 1, 'call_0', signal);
    await turns.useTool(run.id, 1, 1, 'call_0', signal);
    expect(toolCalls).toBe(1);

    const ask = await turns.nextTurn(run.id, 2, 2, signal);
    expect(ask).toMatchObject({ kind: 'tool_calls', toolCalls: [{ id: 'call_1', name: 'ask_user' }] });
    await turns.recordAnswer(run.id, 3, 3, 'call_1', { answer: 'Ada' });
    await turns.recordAnswer(run.id, 3, 3, 'call_1', { answer: 'Ada' });

    // the script is used up: the model answers with every answer it read from the stored conversation
    expect(await turns.nextTurn(run.id, 4, 4, signal)).toEqual({ kind: 'final', output: { answers: ['Ada'] } });
    expect(modelCalls).toBe(3);

    const rows: Array<{ index: number; role: string; message: Record<string, unknown> }> = await h.orm.em
      .fork()
      .getConnection()
      .execute(`select index, role, message from run_messages where run_id = ? order by index`, [run.id]);
    expect(rows.map((r) => `${r.index}:${r.role}`)).toEqual(['0:assistant', '1:tool', '2:assistant', '3:tool']);
    expect(rows[1].message).toEqual({
      role: 'tool',
      toolCallId: 'call_0',
      name: 'http_request',
      content: 'result of call_0',
    });
    expect(rows[3].message).toEqual({ role: 'tool', toolCallId: 'call_1', name: 'ask_user', content: '"Ada"' });

    const steps = (await (await h.request(`/v1/runs/${run.id}/steps`, { headers: auth })).json()).steps;
    expect(steps.map((s: { type: string; status: string }) => `${s.type}:${s.status}`)).toEqual([
      'model:succeeded',
      'tool:succeeded',
      'model:succeeded',
      'input:succeeded',
      'model:succeeded',
    ]);
  });
});
