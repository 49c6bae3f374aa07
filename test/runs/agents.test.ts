import { randomUUID } from 'node:crypto';
import { startApi, type Harness } from '../helpers/harness';
import { addMember, bearer, createKey, setPlan, signUp } from '../helpers/factories';

// Agents with immutable versions (docs/api/agents.md), the definition route, the catalogues.
describe('agents and catalogues', () => {
  let h: Harness;
  let writer: Record<string, string>;
  let owner: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    h = await startApi();
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    writer = bearer(await createKey(h, owner, ['agents:read', 'agents:write']));
  });
  afterAll(() => h.close());

  it('creates from the default preset and versions every definition change, not a rename', async () => {
    const created = await (
      await h.request('/v1/agents', { method: 'POST', headers: writer, json: { name: 'A' } })
    ).json();
    expect(created).toMatchObject({
      presetId: 'general-assistant',
      version: 1,
      modelId: 'builtin/echo',
      tools: [],
      instructions: null,
    });
    expect(created.settings).toEqual({ approval: 'never', review: false, maxSteps: 25 });
    const patch = (json: unknown) => h.request(`/v1/agents/${created.id}`, { method: 'PATCH', headers: writer, json });
    const renamed = await (await patch({ name: 'B' })).json();
    expect(renamed).toMatchObject({ name: 'B', version: 1 });
    const v2 = await (await patch({ instructions: 'Be brief.', settings: { review: true } })).json();
    expect(v2).toMatchObject({
      version: 2,
      instructions: 'Be brief.',
      settings: { approval: 'never', review: true, maxSteps: 25 },
    });
    const { versions } = await (await h.request(`/v1/agents/${created.id}/versions`, { headers: writer })).json();
    expect(versions.map((v: { version: number; instructions: string | null }) => [v.version, v.instructions])).toEqual([
      [2, 'Be brief.'],
      [1, null],
    ]);
    expect((await patch({})).status).toBe(400);
    expect((await patch({ modelId: 'openai/nope' })).status).toBe(400);
    const { agents } = await (await h.request('/v1/agents', { headers: writer })).json();
    expect(agents.map((a: { id: string }) => a.id)).toContain(created.id);
    expect((await h.request(`/v1/agents/${created.id}`, { method: 'DELETE', headers: writer })).status).toBe(204);
    expect((await h.request(`/v1/agents/${created.id}`, { headers: writer })).status).toBe(404);
  });

  it("pages an agent's versions like every list, newest first", async () => {
    const agent = await (
      await h.request('/v1/agents', { method: 'POST', headers: writer, json: { name: 'P' } })
    ).json();
    for (let i = 2; i <= 5; i++) {
      const res = await h.request(`/v1/agents/${agent.id}`, {
        method: 'PATCH',
        headers: writer,
        json: { instructions: `v${i}` },
      });
      expect((await res.json()).version).toBe(i);
    }
    const pages: number[][] = [];
    let cursor: string | null = null;
    do {
      const query: string = `limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await h.request(`/v1/agents/${agent.id}/versions?${query}`, { headers: writer });
      expect(res.status).toBe(200);
      const body: { versions: Array<{ version: number }>; nextCursor: string | null } = await res.json();
      expect(Object.keys(body).sort()).toEqual(['nextCursor', 'versions']);
      pages.push(body.versions.map((v) => v.version));
      cursor = body.nextCursor;
    } while (cursor && pages.length < 10);
    expect(pages).toEqual([[5, 4], [3, 2], [1]]);
    const all = await (await h.request(`/v1/agents/${agent.id}/versions`, { headers: writer })).json();
    expect(all.versions.map((v: { version: number }) => v.version)).toEqual([5, 4, 3, 2, 1]);
    expect(all.nextCursor).toBeNull();
    const tooMany = await h.request(`/v1/agents/${agent.id}/versions?limit=101`, { headers: writer });
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).error.details.issues[0].path).toBe('limit');
  });

  it('refuses unknown presets, models and tools with 400', async () => {
    for (const body of [
      { name: 'x', presetId: 'nope' },
      { name: 'x', modelId: 'builtin/nope' },
      { name: 'x', tools: ['rm_rf'] },
      { name: 'x', settings: { approval: 'sometimes' } },
      { name: '' },
    ]) {
      const res = await h.request('/v1/agents', { method: 'POST', headers: writer, json: body });
      expect(res.status).toBe(400);
    }
  });

  it('adds instructions and saved reads to the definition only when the key also has runner:run', async () => {
    const agent = await (
      await h.request('/v1/agents', {
        method: 'POST',
        headers: writer,
        json: { name: 'D', instructions: 'secret sauce' },
      })
    ).json();
    const plain = await (await h.request(`/v1/agents/${agent.id}/definition`, { headers: writer })).json();
    expect(plain).toEqual({
      id: agent.id,
      name: 'D',
      version: 1,
      modelId: 'builtin/echo',
      tools: [],
      settings: agent.settings,
    });
    const runner = bearer(await createKey(h, owner, ['agents:read', 'runner:run']));
    const full = await (await h.request(`/v1/agents/${agent.id}/definition`, { headers: runner })).json();
    expect(full).toMatchObject({ instructions: 'secret sauce', savedReads: [] });
    const onlyRunner = bearer(await createKey(h, owner, ['runner:run']));
    expect((await h.request(`/v1/agents/${agent.id}/definition`, { headers: onlyRunner })).status).toBe(403);
    expect((await h.request(`/v1/agents/${randomUUID()}/definition`, { headers: runner })).status).toBe(404);
  });

  it('keeps instructions from a read-only caller on every agent route, not only the definition', async () => {
    const agent = await (
      await h.request('/v1/agents', {
        method: 'POST',
        headers: writer,
        json: { name: 'S', instructions: 'secret sauce' },
      })
    ).json();
    const reader = bearer(await createKey(h, owner, ['agents:read']));
    const runner = bearer(await createKey(h, owner, ['agents:read', 'runner:run']));
    const read = async (headers: Record<string, string>) => [
      await (await h.request(`/v1/agents/${agent.id}`, { headers })).json(),
      (await (await h.request('/v1/agents', { headers })).json()).agents.find((a: { id: string }) => a.id === agent.id),
      (await (await h.request(`/v1/agents/${agent.id}/versions`, { headers })).json()).versions[0],
    ];
    for (const shown of await read(reader)) {
      expect(shown).not.toHaveProperty('instructions');
      expect(shown.modelId).toBe('builtin/echo');
    }
    expect(JSON.stringify(await read(reader))).not.toContain('secret sauce');
    for (const headers of [writer, runner]) {
      for (const shown of await read(headers)) expect(shown.instructions).toBe('secret sauce');
    }
    // a console member reads agents but may neither change nor run them; an admin may
    const member = await signUp(h);
    await addMember(h, member.userId, owner.workspaceId, 'member');
    const asMember = { cookie: member.cookie, 'x-workspace-id': owner.workspaceId };
    expect(await (await h.request(`/v1/agents/${agent.id}`, { headers: asMember })).json()).not.toHaveProperty(
      'instructions',
    );
    const admin = await signUp(h);
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const asAdmin = { cookie: admin.cookie, 'x-workspace-id': owner.workspaceId };
    expect((await (await h.request(`/v1/agents/${agent.id}`, { headers: asAdmin })).json()).instructions).toBe(
      'secret sauce',
    );
  });

  it('serves the presets, models (with prices) and tools catalogues', async () => {
    const { models } = await (await h.request('/v1/models', { headers: writer })).json();
    expect(models).toEqual(
      expect.arrayContaining([
        {
          id: 'builtin/echo',
          provider: 'builtin',
          pricing: { inputPerMTokUsd: 0, outputPerMTokUsd: 0, perRunUsd: 0.001 },
        },
        {
          id: 'builtin/scripted',
          provider: 'builtin',
          pricing: { inputPerMTokUsd: 0, outputPerMTokUsd: 0, perRunUsd: 0.001 },
        },
      ]),
    );
    const { tools } = await (await h.request('/v1/tools', { headers: writer })).json();
    expect(tools.map((t: { name: string }) => t.name)).toEqual([
      'ask_user',
      'http_request',
      'knowledge_search',
      'saved_table_rows',
      'calendar_free_slots',
      'calendar_book',
      'finance_reconcile',
      'finance_apply_matches',
      'finance_report',
    ]);
    const { presets } = await (await h.request('/v1/presets', { headers: writer })).json();
    expect(presets.map((p: { id: string }) => p.id)).toContain('general-assistant');
  });
});
