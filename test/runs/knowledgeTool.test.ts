import { startRunStack } from '../helpers/worker';
import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';

// The knowledge_search tool (docs/api/knowledge.md): a run searches the documents linked to its agent.
describe('knowledge_search in runs', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Record<string, string>;

  beforeAll(async () => {
    ({ h, stop } = await startRunStack());
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:read', 'agents:write']));
  }, 120_000);
  afterAll(() => stop?.());

  const addDoc = async (title: string, text: string, agentIds: string[]) => {
    const res = await h.request('/v1/knowledge', { method: 'POST', headers: auth, json: { title, text, agentIds } });
    expect(res.status).toBe(201);
    return (await res.json()).id as string;
  };

  it('is in the catalogue and lets a scripted run search its agent’s documents and return the results', async () => {
    const tools = (await (await h.request('/v1/tools', { headers: auth })).json()).tools;
    expect(tools.map((t: any) => t.name)).toContain('knowledge_search');

    const agent = await createAgent(h, auth, { presetId: 'scripted', tools: ['knowledge_search'] });
    const other = await createAgent(h, auth, { presetId: 'scripted', tools: ['knowledge_search'] });
    const linked = await addDoc('Holiday policy', 'Staff get 30 vacation days per year.', [agent.id]);
    await addDoc('Other agent', 'Vacation days are unlimited.', [other.id]);
    await addDoc('Unlinked', 'Vacation is never allowed.', []);

    const run = await createRun(h, auth, {
      agentId: agent.id,
      input: { script: [{ tool: 'knowledge_search', args: { query: 'vacation days' } }, { finalToolResult: true }] },
    });
    const done = await waitForStatus(h, auth, run.id, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    expect(done.output).toEqual({
      results: [
        {
          documentId: linked,
          title: 'Holiday policy',
          snippet: expect.stringContaining('<mark>vacation</mark> <mark>days</mark>'),
          score: expect.any(Number),
        },
      ],
    });
    const steps = (await (await h.request(`/v1/runs/${run.id}/steps`, { headers: auth })).json()).steps;
    expect(steps.map((s: any) => `${s.type}:${s.status}`)).toEqual([
      'model:succeeded',
      'tool:succeeded',
      'model:succeeded',
    ]);
  }, 60_000);

  it('gives a bad query back to the model as the tool error, and is refused to an agent that does not list it', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted', tools: ['knowledge_search'] });
    const run = await createRun(h, auth, {
      agentId: agent.id,
      input: { script: [{ tool: 'knowledge_search', args: { query: '  ' } }, { finalToolResult: true }] },
    });
    expect(await waitForStatus(h, auth, run.id, ['succeeded', 'failed'])).toMatchObject({
      status: 'succeeded',
      output: { error: 'knowledge_search needs a non-empty query' },
    });

    const without = await createAgent(h, auth, { presetId: 'scripted', tools: [] });
    const refused = await createRun(h, auth, {
      agentId: without.id,
      input: { script: [{ tool: 'knowledge_search', args: { query: 'x' } }] },
    });
    expect(await waitForStatus(h, auth, refused.id, ['succeeded', 'failed'])).toMatchObject({
      status: 'failed',
      error: { code: 'agent.tool_not_allowed' },
    });
  }, 60_000);
});
