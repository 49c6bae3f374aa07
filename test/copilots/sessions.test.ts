import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { ok } from '../helpers/responses';
import { createAgent } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';

type Headers = Record<string, string>;

// The copilots' histories (docs/api/copilots.md#sessions): readable like tutor sessions, under the scope
// that reads their subject (`agents:read` for an agent's, `data_sources:read` for a data source's).
describe('copilot sessions', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Headers;
  let agentsReader: Headers;
  let sourcesReader: Headers;
  let runsOnly: Headers;
  let other: Headers;
  beforeAll(async () => {
    ({ h, stop } = await startRunStack());
    const account = await signUp(h);
    await setPlan(h, account.workspaceId, 'scale');
    auth = bearer(
      await createKey(h, account, ['agents:read', 'agents:write', 'data_sources:read', 'data_sources:manage']),
    );
    agentsReader = bearer(await createKey(h, account, ['agents:read']));
    sourcesReader = bearer(await createKey(h, account, ['data_sources:read']));
    runsOnly = bearer(await createKey(h, account, ['runs:read']));
    const stranger = await signUp(h);
    other = bearer(await createKey(h, stranger, ['agents:read', 'data_sources:read']));
  }, 120_000);
  afterAll(async () => {
    await stop();
  });

  const get = (path: string, headers: Headers) => h.request(path, { headers });

  it("an agent's copilot sessions list newest first without messages, and read one with its messages", async () => {
    const agent = await createAgent(h, auth, { instructions: 'Be brief.' });
    const elsewhere = await createAgent(h, auth, {});
    const ask = (body: object) =>
      ok(h.request(`/v1/agents/${agent.id}/copilot`, { method: 'POST', headers: auth, json: body }), 200);
    const first = await ask({ message: 'What does this agent do?' });
    await ask({ message: 'And its tools?', conversationId: first.conversationId });

    const base = `/v1/agents/${agent.id}/copilot/sessions`;
    const list = await ok(get(`${base}?limit=10`, agentsReader), 200);
    expect(list.nextCursor).toBeNull();
    expect(list.sessions).toHaveLength(1);
    expect(list.sessions[0]).toMatchObject({ id: first.conversationId, subjectId: agent.id, status: 'active' });
    expect(list.sessions[0].messages).toBeUndefined();
    const one = await ok(get(`${base}/${first.conversationId}`, agentsReader), 200);
    expect(one.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(one.messages[0].text).toBe('What does this agent do?');
    expect(one.messages[2].text).toBe('And its tools?');

    // another agent's sessions hold none of these, and this session is not one of them
    expect((await ok(get(`/v1/agents/${elsewhere.id}/copilot/sessions`, agentsReader), 200)).sessions).toEqual([]);
    expect(
      (await get(`/v1/agents/${elsewhere.id}/copilot/sessions/${first.conversationId}`, agentsReader)).status,
    ).toBe(404);
    // the scope that reads agents; another workspace's agent and session are unknown
    expect((await get(base, runsOnly)).status).toBe(403);
    expect((await get(base, sourcesReader)).status).toBe(403);
    expect((await get(base, other)).status).toBe(404);
    expect((await get(`${base}/${first.conversationId}`, other)).status).toBe(404);
  });

  it("a data source's copilot sessions read with data_sources:read", async () => {
    const source = await ok(
      h.request('/v1/data-sources', { method: 'POST', headers: auth, json: { name: 'Sheets', type: 'file' } }),
      201,
    );
    await ok(
      h.request(`/v1/data-sources/${source.id}/files`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'text/csv', 'x-filename': 'people.csv' },
        body: 'name,score\nAda,90\nGrace,85\n',
      }),
      201,
    );
    const reply = await ok(
      h.request(`/v1/data-sources/${source.id}/copilot`, {
        method: 'POST',
        headers: auth,
        json: { question: 'Who scored highest?' },
      }),
      200,
    );
    const base = `/v1/data-sources/${source.id}/copilot/sessions`;
    const list = await ok(get(base, sourcesReader), 200);
    expect(list.sessions.map((s: { id: string; subjectId: string }) => [s.id, s.subjectId])).toEqual([
      [reply.conversationId, source.id],
    ]);
    const one = await ok(get(`${base}/${reply.conversationId}`, sourcesReader), 200);
    expect(one.messages[0]).toMatchObject({ role: 'user', text: 'Who scored highest?' });
    expect((await get(base, agentsReader)).status).toBe(403);
    expect((await get(base, other)).status).toBe(404);
  });
});
