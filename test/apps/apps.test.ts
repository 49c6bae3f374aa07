import { randomUUID } from 'node:crypto';
import { addMember, bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { call as callOn, newAgent, newApp, simpleForm, uniqueSlug, type Headers } from './helpers';

// Published apps: CRUD, publish/pause, templates, usage, access (docs/api/apps.md).
describe('apps', () => {
  let h: Harness;
  let owner: Account;
  let auth: Headers;
  let agentId: string;
  const call = (method: string, path: string, headers: Headers, json?: unknown) =>
    callOn(h, method, path, headers, json);

  beforeAll(async () => {
    h = await startApi();
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['apps:manage', 'agents:write', 'agents:read']));
    agentId = await newAgent(h, auth);
  });
  afterAll(() => h.close());

  it('creates, reads, lists, updates, publishes, pauses and deletes an app', async () => {
    const slug = uniqueSlug();
    const created = await ok(
      call('POST', '/v1/apps', auth, { name: 'Explainer', slug, agentId, form: simpleForm, description: 'Hi' }),
      201,
    );
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Explainer',
      slug,
      description: 'Hi',
      agentId,
      status: 'draft',
      form: simpleForm,
      priceListId: null,
      domains: [],
      publicUrl: `/apps/${slug}`,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await ok(call('GET', `/v1/apps/${created.id}`, auth), 200)).toEqual(created);
    const { apps, nextCursor } = await ok(call('GET', '/v1/apps?limit=100', auth), 200);
    expect(apps.map((a: { id: string }) => a.id)).toContain(created.id);
    expect(nextCursor).toBeNull();

    const patched = await ok(
      call('PATCH', `/v1/apps/${created.id}`, auth, { name: 'Renamed', description: null }),
      200,
    );
    expect(patched).toMatchObject({ name: 'Renamed', description: null, slug });

    await error(call('POST', `/v1/apps/${created.id}/pause`, auth), 409, 'conflict');
    expect((await ok(call('POST', `/v1/apps/${created.id}/publish`, auth), 200)).status).toBe('published');
    expect((await ok(call('POST', `/v1/apps/${created.id}/publish`, auth), 200)).status).toBe('published');
    expect((await ok(call('POST', `/v1/apps/${created.id}/pause`, auth), 200)).status).toBe('paused');
    expect((await ok(call('POST', `/v1/apps/${created.id}/publish`, auth), 200)).status).toBe('published');

    expect((await call('DELETE', `/v1/apps/${created.id}`, auth)).status).toBe(204);
    await error(call('GET', `/v1/apps/${created.id}`, auth), 404, 'not_found');
    await error(call('DELETE', `/v1/apps/${created.id}`, auth), 404, 'not_found');
  });

  it('pages apps newest first', async () => {
    const account = await signUp(h);
    const key = bearer(await createKey(h, account, ['apps:manage', 'agents:write']));
    const agent = await newAgent(h, key);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await newApp(h, key, agent)).id);
    const first = await ok(call('GET', '/v1/apps?limit=2', key), 200);
    expect(first.apps.map((a: { id: string }) => a.id)).toEqual([ids[2], ids[1]]);
    const second = await ok(call('GET', `/v1/apps?limit=2&cursor=${first.nextCursor}`, key), 200);
    expect(second.apps.map((a: { id: string }) => a.id)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeNull();
  });

  it('creates from a template, which fills name, description and form', async () => {
    const { templates } = await ok(call('GET', '/v1/app-templates', auth), 200);
    expect(templates.length).toBeGreaterThanOrEqual(3);
    const t = templates.find((x: { id: string }) => x.id === 'summarizer');
    const app = await ok(
      call('POST', '/v1/apps', auth, { templateId: 'summarizer', slug: uniqueSlug(), agentId }),
      201,
    );
    expect(app).toMatchObject({ name: t.name, description: t.description, form: t.form });
    const named = await ok(
      call('POST', '/v1/apps', auth, { templateId: 'translator', name: 'Mine', slug: uniqueSlug(), agentId }),
      201,
    );
    expect(named.name).toBe('Mine');
    const e = await error(
      call('POST', '/v1/apps', auth, { templateId: 'nope', slug: uniqueSlug(), agentId }),
      400,
      'validation_error',
    );
    expect(e.details.issues[0].path).toBe('templateId');
  });

  it('validates slugs, forms, agents and price lists', async () => {
    const base = { name: 'x', agentId, form: simpleForm };
    for (const slug of ['ab', 'Upper-case', '-lead', 'trail-', 'has space', 'x'.repeat(64)]) {
      await error(call('POST', '/v1/apps', auth, { ...base, slug }), 400, 'validation_error');
    }
    const bad = [
      { ...base, slug: uniqueSlug(), form: { fields: [] } },
      { ...base, slug: uniqueSlug(), form: { fields: [{ name: 'a', label: 'A', type: 'select', required: true }] } },
      { ...base, slug: uniqueSlug(), form: { fields: [{ name: 'a', label: 'A', type: 'color', required: true }] } },
      { ...base, slug: uniqueSlug(), form: { fields: [{ name: '1a', label: 'A', type: 'text', required: true }] } },
      { ...base, slug: uniqueSlug(), extra: 1 },
      { slug: uniqueSlug(), agentId },
    ];
    for (const body of bad) await error(call('POST', '/v1/apps', auth, body), 400, 'validation_error');
    const dup = await error(
      call('POST', '/v1/apps', auth, {
        ...base,
        slug: uniqueSlug(),
        form: {
          fields: [
            { name: 'a', label: 'A', type: 'text', required: true },
            { name: 'a', label: 'B', type: 'text', required: false },
          ],
        },
      }),
      400,
      'validation_error',
    );
    expect(dup.details.issues[0].path).toBe('form.fields.1.name');
    const noAgent = await error(
      call('POST', '/v1/apps', auth, { ...base, slug: uniqueSlug(), agentId: randomUUID() }),
      400,
      'validation_error',
    );
    expect(noAgent.details.issues[0].path).toBe('agentId');
    const noList = await error(
      call('POST', '/v1/apps', auth, { ...base, slug: uniqueSlug(), priceListId: randomUUID() }),
      400,
      'validation_error',
    );
    expect(noList.details.issues[0].path).toBe('priceListId');
    await error(call('PATCH', `/v1/apps/${(await newApp(h, auth, agentId)).id}`, auth, {}), 400, 'validation_error');
  });

  it('keeps slugs unique across workspaces (409)', async () => {
    const app = await newApp(h, auth, agentId);
    const other = await signUp(h);
    const key = bearer(await createKey(h, other, ['apps:manage', 'agents:write']));
    const otherAgent = await newAgent(h, key);
    await error(
      call('POST', '/v1/apps', key, { name: 'x', slug: app.slug, agentId: otherAgent, form: simpleForm }),
      409,
      'conflict',
    );
    const mine = await newApp(h, key, otherAgent);
    await error(call('PATCH', `/v1/apps/${mine.id}`, key, { slug: app.slug }), 409, 'conflict');
  });

  it("answers 404 for another workspace's app and rejects its agents and price lists", async () => {
    const app = await newApp(h, auth, agentId);
    const other = await signUp(h);
    const key = bearer(await createKey(h, other, ['apps:manage', 'agents:write']));
    for (const [method, path] of [
      ['GET', `/v1/apps/${app.id}`],
      ['PATCH', `/v1/apps/${app.id}`],
      ['DELETE', `/v1/apps/${app.id}`],
      ['POST', `/v1/apps/${app.id}/publish`],
      ['POST', `/v1/apps/${app.id}/pause`],
      ['GET', `/v1/apps/${app.id}/usage?from=2026-01-01&to=2026-12-31`],
      ['POST', `/v1/apps/${app.id}/domains`],
    ] as const) {
      const body =
        method === 'PATCH' ? { name: 'stolen' } : path.endsWith('domains') ? { hostname: 'a.example.com' } : undefined;
      await error(call(method, path, key, body), 404, 'not_found');
    }
    const list = await ok(call('POST', '/v1/price-lists', auth, { name: 'mine' }), 201);
    await error(
      call('POST', '/v1/apps', key, { name: 'x', slug: uniqueSlug(), agentId, form: simpleForm }),
      400,
      'validation_error',
    );
    const theirs = await newApp(h, key, await newAgent(h, key));
    await error(call('PATCH', `/v1/apps/${theirs.id}`, key, { priceListId: list.id }), 400, 'validation_error');
    await error(call('GET', '/v1/apps/not-a-uuid', key), 404, 'not_found');
  });

  it('needs apps:manage from keys and admin or owner from sessions', async () => {
    const app = await newApp(h, auth, agentId);
    const noScope = bearer(await createKey(h, owner, ['agents:read', 'agents:write', 'runs:write']));
    await error(call('GET', '/v1/apps', noScope), 403, 'forbidden');
    await error(call('GET', '/v1/app-templates', noScope), 403, 'forbidden');
    await error(call('POST', `/v1/apps/${app.id}/publish`, noScope), 403, 'forbidden');
    await error(call('GET', '/v1/apps', {}), 401, 'unauthorized');

    const member = await signUp(h);
    await addMember(h, member.userId, owner.workspaceId, 'member');
    const asMember = { cookie: member.cookie, 'x-workspace-id': owner.workspaceId };
    await error(call('GET', `/v1/apps/${app.id}`, asMember), 403, 'forbidden');
    const admin = await signUp(h);
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const asAdmin = { cookie: admin.cookie, 'x-workspace-id': owner.workspaceId };
    expect((await ok(call('GET', `/v1/apps/${app.id}`, asAdmin), 200)).id).toBe(app.id);
    expect((await ok(call('POST', `/v1/apps/${app.id}/publish`, { cookie: owner.cookie }), 200)).status).toBe(
      'published',
    );
  });

  it('checks usage ranges', async () => {
    const app = await newApp(h, auth, agentId);
    const usage = await ok(call('GET', `/v1/apps/${app.id}/usage?from=2026-01-01&to=2026-01-31`, auth), 200);
    expect(usage).toEqual({
      appId: app.id,
      from: '2026-01-01',
      to: '2026-01-31',
      runs: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      priceListId: null,
      billedUsd: null,
    });
    await error(call('GET', `/v1/apps/${app.id}/usage?from=2026-02-01&to=2026-01-31`, auth), 400, 'validation_error');
    await error(call('GET', `/v1/apps/${app.id}/usage?from=yesterday&to=2026-01-31`, auth), 400, 'validation_error');
  });
});
