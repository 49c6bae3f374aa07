import { randomUUID } from 'node:crypto';
import { addMember, bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';

type Headers = Record<string, string>;

// Projects, their members and agents' projectId (docs/api/projects.md).
describe('projects and members', () => {
  let h: Harness;
  let owner: Account;
  let writer: Headers;
  beforeAll(async () => {
    h = await startApi();
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    writer = bearer(await createKey(h, owner, ['agents:read', 'agents:write']));
  });
  afterAll(() => h.close());

  const call = (method: string, path: string, headers: Headers, json?: unknown) =>
    h.request(path, { method, headers, json });
  const newProject = (name = 'Support', headers = writer) => ok(call('POST', '/v1/projects', headers, { name }), 201);

  it('creates, reads, lists, updates and deletes projects', async () => {
    const created = await ok(call('POST', '/v1/projects', writer, { name: ' Sales ', description: 'leads' }), 201);
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Sales',
      description: 'leads',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await ok(call('GET', `/v1/projects/${created.id}`, writer), 200)).toEqual(created);
    const renamed = await ok(
      call('PATCH', `/v1/projects/${created.id}`, writer, { name: 'Deals', description: null }),
      200,
    );
    expect(renamed).toMatchObject({ id: created.id, name: 'Deals', description: null });
    const { projects, nextCursor } = await ok(call('GET', '/v1/projects', writer), 200);
    expect(projects.map((p: { id: string }) => p.id)).toContain(created.id);
    expect(nextCursor).toBeNull();
    expect((await call('DELETE', `/v1/projects/${created.id}`, writer)).status).toBe(204);
    await error(call('GET', `/v1/projects/${created.id}`, writer), 404, 'not_found');
    await error(call('DELETE', `/v1/projects/${created.id}`, writer), 404, 'not_found');
  });

  it('pages projects newest first like every list', async () => {
    const account = await signUp(h);
    await setPlan(h, account.workspaceId, 'scale');
    const auth = bearer(await createKey(h, account, ['agents:read', 'agents:write']));
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await newProject(`p${i}`, auth)).id);
    const seen: string[][] = [];
    let cursor: string | null = null;
    do {
      const page: any = await ok(call('GET', `/v1/projects?limit=2${cursor ? `&cursor=${cursor}` : ''}`, auth), 200);
      seen.push(page.projects.map((p: { id: string }) => p.id));
      cursor = page.nextCursor;
    } while (cursor && seen.length < 10);
    expect(seen).toEqual([ids.slice(3).reverse(), ids.slice(1, 3).reverse(), [ids[0]]]);
    await error(call('GET', '/v1/projects?cursor=nope', auth), 400, 'validation_error');
    await error(call('GET', '/v1/projects?limit=0', auth), 400, 'validation_error');
  });

  it('refuses malformed bodies with 400 naming each issue, unknown fields included', async () => {
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(201) }, { name: 5 }, { name: 'a', extra: 1 }]) {
      const e = await error(call('POST', '/v1/projects', writer, body), 400, 'validation_error');
      expect(e.details.issues.length).toBeGreaterThan(0);
    }
    const { id } = await newProject();
    await error(call('PATCH', `/v1/projects/${id}`, writer, {}), 400, 'validation_error');
    await error(call('PATCH', `/v1/projects/${id}`, writer, { description: 7 }), 400, 'validation_error');
    const e = await error(
      call('PUT', `/v1/projects/${id}/members/${owner.userId}`, writer, { role: 'admin' }),
      400,
      'validation_error',
    );
    expect(e.details.issues[0].path).toBe('role');
  });

  it('keeps members among the workspace users with a viewer or editor role', async () => {
    const { id } = await newProject();
    const colleague = await signUp(h);
    await addMember(h, colleague.userId, owner.workspaceId, 'member');
    const put = (userId: string, role: string) => call('PUT', `/v1/projects/${id}/members/${userId}`, writer, { role });
    const added = await ok(put(colleague.userId, 'viewer'), 201);
    expect(added).toEqual({
      projectId: id,
      userId: colleague.userId,
      role: 'viewer',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await ok(put(colleague.userId, 'editor'), 200)).toMatchObject({
      role: 'editor',
      createdAt: added.createdAt,
    });
    await ok(put(owner.userId, 'editor'), 201);
    const { members } = await ok(call('GET', `/v1/projects/${id}/members`, writer), 200);
    expect(members.map((m: { userId: string; role: string }) => [m.userId, m.role])).toEqual([
      [owner.userId, 'editor'],
      [colleague.userId, 'editor'],
    ]);
    const page = await ok(call('GET', `/v1/projects/${id}/members?limit=1`, writer), 200);
    expect(page.members).toHaveLength(1);
    const rest = await ok(call('GET', `/v1/projects/${id}/members?limit=1&cursor=${page.nextCursor}`, writer), 200);
    expect(rest).toEqual({ members: [expect.objectContaining({ userId: colleague.userId })], nextCursor: null });

    // a user of another workspace, or no user at all, is not found here
    const outsider = await signUp(h);
    await error(put(outsider.userId, 'viewer'), 404, 'not_found');
    await error(put(randomUUID(), 'viewer'), 404, 'not_found');
    await error(put('not-a-uuid', 'viewer'), 404, 'not_found');

    expect((await call('DELETE', `/v1/projects/${id}/members/${colleague.userId}`, writer)).status).toBe(204);
    await error(call('DELETE', `/v1/projects/${id}/members/${colleague.userId}`, writer), 404, 'not_found');
    const after = await ok(call('GET', `/v1/projects/${id}/members`, writer), 200);
    expect(after.members.map((m: { userId: string }) => m.userId)).toEqual([owner.userId]);
  });

  it('adds a member once under concurrent PUTs', async () => {
    const { id } = await newProject();
    const results = await Promise.all(
      ['viewer', 'editor', 'viewer', 'editor'].map((role) =>
        call('PUT', `/v1/projects/${id}/members/${owner.userId}`, writer, { role }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    const { members } = await ok(call('GET', `/v1/projects/${id}/members`, writer), 200);
    expect(members).toHaveLength(1);
  });

  it('puts agents in a project, filters by it, and leaves them without one when it is deleted', async () => {
    const project = await newProject('Agents');
    const other = await newProject('Other');
    const inProject = await ok(call('POST', '/v1/agents', writer, { name: 'in', projectId: project.id }), 201);
    expect(inProject).toMatchObject({ projectId: project.id, version: 1 });
    const outside = await ok(call('POST', '/v1/agents', writer, { name: 'out' }), 201);
    expect(outside.projectId).toBeNull();
    const moved = await ok(call('PATCH', `/v1/agents/${outside.id}`, writer, { projectId: other.id }), 200);
    expect(moved).toMatchObject({ projectId: other.id, version: 1 }); // not a definition change
    const list = async (projectId: string) =>
      (await ok(call('GET', `/v1/agents?projectId=${projectId}`, writer), 200)).agents.map((a: { id: string }) => a.id);
    expect(await list(project.id)).toEqual([inProject.id]);
    expect(await list(other.id)).toEqual([outside.id]);
    expect(await list(randomUUID())).toEqual([]);
    await error(call('GET', '/v1/agents?projectId=nope', writer), 400, 'validation_error');

    // unknown and foreign projects are 400 in bodies
    const stranger = await signUp(h);
    const theirs = await newProject('theirs', bearer(await createKey(h, stranger, ['agents:write'])));
    for (const projectId of [theirs.id, randomUUID()]) {
      const e = await error(call('POST', '/v1/agents', writer, { name: 'x', projectId }), 400, 'validation_error');
      expect(e.details.issues).toEqual([{ path: 'projectId', message: expect.stringContaining(projectId) }]);
      await error(call('PATCH', `/v1/agents/${outside.id}`, writer, { projectId }), 400, 'validation_error');
    }
    await error(call('POST', '/v1/agents', writer, { name: 'x', projectId: 'nope' }), 400, 'validation_error');

    expect((await call('DELETE', `/v1/projects/${project.id}`, writer)).status).toBe(204);
    const orphan = await ok(call('GET', `/v1/agents/${inProject.id}`, writer), 200);
    expect(orphan).toMatchObject({ projectId: null, name: 'in' });
    expect(
      (await ok(call('PATCH', `/v1/agents/${outside.id}`, writer, { projectId: null }), 200)).projectId,
    ).toBeNull();
  });

  it("answers 404 for another workspace's project on every route", async () => {
    const { id } = await newProject();
    const stranger = await signUp(h);
    const theirs = bearer(await createKey(h, stranger, ['agents:read', 'agents:write']));
    for (const [method, path, body] of [
      ['GET', `/v1/projects/${id}`],
      ['PATCH', `/v1/projects/${id}`, { name: 'mine' }],
      ['DELETE', `/v1/projects/${id}`],
      ['GET', `/v1/projects/${id}/members`],
      ['PUT', `/v1/projects/${id}/members/${stranger.userId}`, { role: 'editor' }],
      ['DELETE', `/v1/projects/${id}/members/${owner.userId}`],
      ['GET', `/v1/projects/${randomUUID()}`],
      ['GET', '/v1/projects/not-a-uuid'],
    ] as Array<[string, string, unknown?]>) {
      await error(call(method, path, theirs, body), 404, 'not_found');
    }
    expect((await ok(call('GET', '/v1/projects', theirs), 200)).projects).toEqual([]);
    expect(await ok(call('GET', `/v1/projects/${id}`, writer), 200)).toMatchObject({ name: 'Support' });
  });

  it('needs agents:read to read and agents:write to change, for keys and session roles', async () => {
    const { id } = await newProject();
    const reader = bearer(await createKey(h, owner, ['agents:read']));
    const runsOnly = bearer(await createKey(h, owner, ['runs:read']));
    const member = await signUp(h);
    const admin = await signUp(h);
    await addMember(h, member.userId, owner.workspaceId, 'member');
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const session = (a: Account) => ({ cookie: a.cookie, 'X-Workspace-Id': owner.workspaceId });
    const reads: Array<[string, string]> = [
      ['GET', '/v1/projects'],
      ['GET', `/v1/projects/${id}`],
      ['GET', `/v1/projects/${id}/members`],
    ];
    const writes: Array<[string, string, unknown?]> = [
      ['POST', '/v1/projects', { name: 'n' }],
      ['PATCH', `/v1/projects/${id}`, { name: 'n' }],
      ['PUT', `/v1/projects/${id}/members/${member.userId}`, { role: 'viewer' }],
      ['DELETE', `/v1/projects/${id}/members/${member.userId}`],
      ['DELETE', `/v1/projects/${id}`],
    ];
    for (const [method, path] of reads) {
      await error(call(method, path, runsOnly), 403, 'forbidden');
      expect((await call(method, path, reader)).status).toBe(200);
      expect((await call(method, path, session(member))).status).toBe(200);
    }
    for (const [method, path, body] of writes) {
      await error(call(method, path, reader, body), 403, 'forbidden');
      await error(call(method, path, session(member), body), 403, 'forbidden');
    }
    const statuses: number[] = [];
    for (const [method, path, body] of writes) statuses.push((await call(method, path, session(admin), body)).status);
    expect(statuses).toEqual([201, 200, 201, 204, 204]);
  });
});
