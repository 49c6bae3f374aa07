import { randomUUID } from 'node:crypto';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { createAgent } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';

type Headers = Record<string, string>;

const CSV = 'name,city,score\nAda,London,90\nGrace,New York,85\nLinus,Helsinki,70\n';

// The agent copilot and the data-source copilot (docs/api/copilots.md): turns of conversations with the
// workspace's copilot agent (builtin/copilot, deterministic), through HTTP with a real worker.
describe('copilots', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Headers;
  let readOnly: Headers;
  let other: Headers;
  let sourceId: string;
  beforeAll(async () => {
    ({ h, stop } = await startRunStack());
    const account = await signUp(h);
    await setPlan(h, account.workspaceId, 'scale');
    const all = ['agents:read', 'agents:write', 'runs:read', 'data_sources:read', 'data_sources:manage'] as const;
    auth = bearer(await createKey(h, account, [...all]));
    readOnly = bearer(await createKey(h, account, ['agents:read', 'runs:read']));
    const stranger = await signUp(h);
    other = bearer(await createKey(h, stranger, [...all]));
    sourceId = (
      await ok(
        h.request('/v1/data-sources', { method: 'POST', headers: auth, json: { name: 'Sheets', type: 'file' } }),
        201,
      )
    ).id;
    await ok(
      h.request(`/v1/data-sources/${sourceId}/files`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'text/csv', 'x-filename': 'people.csv' },
        body: CSV,
      }),
      201,
    );
  }, 120_000);
  afterAll(async () => {
    await stop();
  });

  const askAgent = (headers: Headers, agentId: string, body: object, key?: string) =>
    h.request(`/v1/agents/${agentId}/copilot`, {
      method: 'POST',
      headers: { ...headers, ...(key ? { 'idempotency-key': key } : {}) },
      json: body,
    });
  const askSource = (headers: Headers, id: string, body: object) =>
    h.request(`/v1/data-sources/${id}/copilot`, { method: 'POST', headers, json: body });

  it('the agent copilot describes the agent, and turns a suggested change into a proposal once', async () => {
    const agent = await createAgent(h, auth, { instructions: 'Be brief.' });
    const first = await ok(askAgent(auth, agent.id, { message: 'What does this agent do?' }), 200);
    expect(first.proposal).toBeNull();
    expect(first.reply).toContain('and instructions (GET /v1/agents/{id} shows them)');
    expect(first.reply).not.toContain('Be brief.');

    const key = randomUUID();
    const asked = await ok(
      askAgent(auth, agent.id, { message: 'Change the instructions to "Answer in French."' }, key),
      200,
    );
    expect(asked.conversationId).toBe(first.conversationId);
    expect(asked.proposal).toMatchObject({
      agentId: agent.id,
      status: 'open',
      changes: { instructions: 'Answer in French.' },
    });
    const again = await ok(
      askAgent(auth, agent.id, { message: 'Change the instructions to "Answer in French."' }, key),
      200,
    );
    expect(again.proposal.id).toBe(asked.proposal.id);
    expect(again.runId).toBe(asked.runId);
    const proposals = await ok(h.request(`/v1/agents/${agent.id}/proposals`, { headers: auth }), 200);
    expect(proposals.proposals).toHaveLength(1);

    // Accepted, the copilot sees the new version on its next turn.
    await ok(h.request(`/v1/proposals/${asked.proposal.id}/accept`, { method: 'POST', headers: auth }), 201);
    const after = await ok(askAgent(auth, agent.id, { message: 'And now?' }), 200);

    // The turns are runs of the workspace's copilot agent, one each; their input says whether the agent has
    // instructions, never what they are, since any runs:read key reads it.
    const run = await ok(h.request(`/v1/runs/${after.runId}`, { headers: readOnly }), 200);
    expect(run.status).toBe('succeeded');
    expect(run.input.transcript).toHaveLength(4);
    expect(run.input.agent).toMatchObject({ id: agent.id, version: 2, hasInstructions: true });
    const firstRun = await ok(h.request(`/v1/runs/${first.runId}`, { headers: readOnly }), 200);
    expect(firstRun.input.agent).toMatchObject({ id: agent.id, version: 1, hasInstructions: true });
    for (const shown of [run, firstRun]) {
      expect(JSON.stringify(shown)).not.toContain('Be brief.');
      expect(JSON.stringify(shown)).not.toContain('instructions":');
    }
  }, 60_000);

  it('a tool the service does not have is not proposed', async () => {
    const agent = await createAgent(h, auth, {});
    const res = await ok(askAgent(auth, agent.id, { message: 'Add the tool teleport' }), 200);
    expect(res.proposal).toBeNull();
    expect(res.reply).toContain('cannot be proposed');
  }, 60_000);

  it('the data-source copilot answers with a structured read and its result', async () => {
    const res = await ok(askSource(auth, sourceId, { question: 'Show the first 2 rows of people' }), 200);
    expect(res.read).toEqual({ object: 'people', limit: 2 });
    expect(res.result.rows).toEqual([
      { name: 'Ada', city: 'London', score: 90 },
      { name: 'Grace', city: 'New York', score: 85 },
    ]);
    expect(res.reply).toBe('Reading people. Found 2 rows of people (more exist).');
    expect(JSON.stringify(res)).not.toMatch(/select /i);

    const where = await ok(
      askSource(auth, sourceId, { question: 'people where city = Helsinki', conversationId: res.conversationId }),
      200,
    );
    expect(where.read).toEqual({
      object: 'people',
      limit: 10,
      where: [{ column: 'city', op: 'eq', value: 'Helsinki' }],
    });
    expect(where.result.rows).toEqual([{ name: 'Linus', city: 'Helsinki', score: 70 }]);

    const unknown = await ok(askSource(auth, sourceId, { question: 'people where planet = Mars' }), 200);
    expect(unknown.result).toBeNull();
    expect(unknown.reply).toContain('I could not read it');

    const vague = await ok(askSource(auth, sourceId, { question: 'What is in here?' }), 200);
    expect(vague).toMatchObject({ read: null, result: null });
    expect(vague.reply).toContain('people');
  }, 60_000);

  it('scopes, other workspaces and bad input', async () => {
    const agent = await createAgent(h, auth, {});
    await error(askAgent(readOnly, agent.id, { message: 'hi' }), 403, 'forbidden');
    await error(askSource(readOnly, sourceId, { question: 'hi' }), 403, 'forbidden');
    await error(askAgent(other, agent.id, { message: 'hi' }), 404, 'not_found');
    await error(askSource(other, sourceId, { question: 'hi' }), 404, 'not_found');
    await error(askAgent(auth, randomUUID(), { message: 'hi' }), 404, 'not_found');
    await error(askAgent(auth, agent.id, { message: '' }), 400, 'validation_error');
    await error(askAgent(auth, agent.id, { message: 'hi', sql: 'select 1' }), 400, 'validation_error');
    await error(askSource(auth, sourceId, { question: 'hi', conversationId: 'nope' }), 400, 'validation_error');
    await error(askSource(auth, sourceId, { question: 'hi', conversationId: randomUUID() }), 404, 'not_found');
    // A conversation of the agent copilot is not one of this data source.
    const chat = await ok(askAgent(auth, agent.id, { message: 'hi' }), 200);
    await error(askSource(auth, sourceId, { question: 'hi', conversationId: chat.conversationId }), 404, 'not_found');
  }, 60_000);
});
