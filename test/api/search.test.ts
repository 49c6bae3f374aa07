import { randomUUID } from 'node:crypto';
import { addMember, bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { testTaskQueue } from '../helpers/worker';
import { createAgent, createRun } from '../helpers/runs';
import { loadConfig } from '../../platform/config';

// Workspace search (docs/api/search.md): one query over runs, agents, files, knowledge and flows,
// each type only where the caller's scopes allow it.
type Headers = Record<string, string>;

describe('workspace search', () => {
  let h: Harness;
  let owner: Account;
  let all: Headers;
  let word: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    // No worker: the run stays queued, which is all search needs.
    h = await startApi({ temporal: { ...loadConfig(process.env).temporal, taskQueue: testTaskQueue() } });
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    all = bearer(
      await createKey(h, owner, [
        'runs:read',
        'runs:write',
        'agents:read',
        'agents:write',
        'files:read',
        'files:write',
        'flows:read',
        'flows:manage',
      ]),
    );
    word = `zq${randomUUID().slice(0, 8)}`;
    const agent = await createAgent(h, all, { presetId: 'scripted', name: `Agent ${word} one` });
    ids.agents = agent.id;
    ids.runs = (await createRun(h, all, { agentId: agent.id, input: { note: `about ${word} today` } })).id;
    const file = await h.request('/v1/files', {
      method: 'POST',
      headers: { ...all, 'content-type': 'text/plain', 'x-filename': `${word}.txt` },
      body: 'x',
    });
    ids.files = (await file.json()).id;
    const doc = await h.request('/v1/knowledge', {
      method: 'POST',
      headers: all,
      json: { title: 'Notes', text: `The ${word} protocol is documented here.` },
    });
    ids.knowledge = (await doc.json()).id;
    const flow = await h.request('/v1/flows', {
      method: 'POST',
      headers: all,
      json: {
        name: 'Weekly digest',
        description: `Sends the ${word} digest`,
        trigger: { type: 'manual' },
        steps: [{ name: 'wait', type: 'delay', seconds: 1 }],
      },
    });
    expect(flow.status).toBe(201);
    ids.flows = (await flow.json()).id;
  }, 60_000);
  afterAll(() => h.close());

  const search = async (auth: Headers, qs: string) => {
    const res = await h.request(`/v1/search?${qs}`, { headers: auth });
    return { status: res.status, body: await res.json() };
  };

  it('finds runs, agents, files, knowledge and flows with marked snippets', async () => {
    const { status, body } = await search(all, `q=${word}`);
    expect(status).toBe(200);
    const byType = Object.fromEntries(body.results.map((r: any) => [r.type, r]));
    expect(Object.keys(byType).sort()).toEqual(['agents', 'files', 'flows', 'knowledge', 'runs']);
    for (const type of ['agents', 'files', 'flows', 'knowledge', 'runs']) {
      expect(byType[type]).toEqual({ type, id: ids[type], title: expect.any(String), snippet: expect.any(String) });
      expect([type, byType[type].snippet]).toEqual([type, expect.stringContaining(`<mark>${word}</mark>`)]);
    }
    expect(byType.agents.title).toBe(`Agent ${word} one`);
    expect(byType.files.title).toBe(`${word}.txt`);
    expect(byType.flows).toMatchObject({
      title: 'Weekly digest',
      snippet: `Weekly digest · Sends the <mark>${word}</mark> digest`,
    });

    const only = await search(all, `q=${word}&types=files,flows`);
    expect(only.body.results.map((r: any) => r.type)).toEqual(['files', 'flows']);
    expect((await search(all, `q=${ids.runs}&types=runs`)).body.results.map((r: any) => r.id)).toEqual([ids.runs]);
    expect((await search(all, `q=${word}&limit=2`)).body.results).toHaveLength(2);
    // LIKE wildcards are literal
    expect((await search(all, 'q=%25%25&types=agents,files')).body).toEqual({ results: [] });
  });

  it('leaves out the types the caller may not read, and needs runs:read itself', async () => {
    const runsOnly = bearer(await createKey(h, owner, ['runs:read']));
    expect((await search(runsOnly, `q=${word}`)).body.results.map((r: any) => r.type)).toEqual(['runs']);
    const runsFiles = bearer(await createKey(h, owner, ['runs:read', 'files:read']));
    expect((await search(runsFiles, `q=${word}`)).body.results.map((r: any) => r.type).sort()).toEqual([
      'files',
      'runs',
    ]);
    const noRuns = bearer(await createKey(h, owner, ['agents:read', 'files:read']));
    const refused = await search(noRuns, `q=${word}`);
    expect({ status: refused.status, code: refused.body.error.code }).toEqual({ status: 403, code: 'forbidden' });

    const member = await signUp(h);
    await addMember(h, member.userId, owner.workspaceId, 'member');
    const asMember = { cookie: member.cookie, 'X-Workspace-Id': owner.workspaceId };
    expect((await search(asMember, `q=${word}`)).body.results).toHaveLength(5);
  });

  it("never shows another workspace's rows", async () => {
    const other = await signUp(h);
    const otherAuth = bearer(await createKey(h, other, ['runs:read', 'agents:read', 'files:read']));
    expect((await search(otherAuth, `q=${word}`)).body).toEqual({ results: [] });
  });

  it('answers a missing or blank q, an unknown type or a bad limit with 400', async () => {
    for (const qs of [
      '',
      'q=%20',
      `q=${'x'.repeat(501)}`,
      'q=x&types=runs,bogus',
      'q=x&types=',
      'q=x&limit=0',
      'q=x&limit=51',
    ]) {
      const { status, body } = await search(all, qs);
      expect([qs, status, body.error.code]).toEqual([qs, 400, 'validation_error']);
    }
  });
});
