import { randomUUID } from 'node:crypto';
import { addMember, bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { createAgent } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';

type Headers = Record<string, string>;

// Evals and their runs through HTTP (docs/api/evals.md): the routes, access, limits and validation. The
// runs themselves (scorers, gates, charges) are in runs.test.ts.
describe('evals', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let owner: Account;
  let writer: Headers;
  let reader: Headers;
  let agentId: string;
  beforeAll(async () => {
    ({ h, stop } = await startRunStack());
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    writer = bearer(await createKey(h, owner, ['agents:read', 'agents:write']));
    reader = bearer(await createKey(h, owner, ['agents:read']));
    agentId = (await createAgent(h, writer, { modelId: 'builtin/echo' })).id;
  });
  afterAll(() => stop());

  const call = (method: string, path: string, headers: Headers, json?: unknown) =>
    h.request(path, { method, headers, json });
  const oneCase = { input: { q: 1 }, expected: { echo: { q: 1 } }, scorer: 'exact' };

  it('creates, reads, lists and deletes evals', async () => {
    const created = await ok(
      call('POST', `/v1/agents/${agentId}/evals`, writer, { name: ' smoke ', cases: [oneCase] }),
      201,
    );
    expect(created).toEqual({
      id: expect.any(String),
      agentId,
      name: 'smoke',
      cases: [oneCase],
      createdAt: expect.any(String),
    });
    expect(await ok(call('GET', `/v1/evals/${created.id}`, reader), 200)).toEqual(created);
    const second = await ok(call('POST', `/v1/agents/${agentId}/evals`, writer, { name: 'b', cases: [oneCase] }), 201);
    const page = await ok(call('GET', `/v1/agents/${agentId}/evals?limit=1`, reader), 200);
    expect(page.evals.map((e: { id: string }) => e.id)).toEqual([second.id]);
    const rest = await ok(call('GET', `/v1/agents/${agentId}/evals?limit=1&cursor=${page.nextCursor}`, reader), 200);
    expect(rest.evals.map((e: { id: string }) => e.id)).toEqual([created.id]);
    expect((await call('DELETE', `/v1/evals/${created.id}`, writer)).status).toBe(204);
    await error(call('GET', `/v1/evals/${created.id}`, reader), 404, 'not_found');
    await error(call('DELETE', `/v1/evals/${created.id}`, writer), 404, 'not_found');
    await error(call('POST', `/v1/evals/${created.id}/runs`, writer, {}), 404, 'not_found');
    await error(call('GET', `/v1/evals/${created.id}/runs`, reader), 404, 'not_found');
  });

  it('refuses bad bodies with 400 naming the path, and more than 100 cases naming the limit', async () => {
    const post = (body: unknown) => call('POST', `/v1/agents/${agentId}/evals`, writer, body);
    const bad: Array<[unknown, string]> = [
      [{ name: 'x', cases: [] }, 'cases'],
      [{ name: 'x', cases: [{ ...oneCase, scorer: 'fuzzy' }] }, 'cases.0.scorer'],
      [{ name: 'x', cases: [{ input: {}, scorer: 'exact' }] }, 'cases.0.expected'],
      [{ name: 'x', cases: [{ ...oneCase, input: 'text' }] }, 'cases.0.input'],
      [{ name: 'x', cases: [{ ...oneCase, answers: [1] }] }, 'cases.0.answers.0'],
      [{ name: '', cases: [oneCase] }, 'name'],
      [{ name: 'x', cases: [oneCase], extra: 1 }, ''],
    ];
    for (const [body, path] of bad) {
      const e = await error(post(body), 400, 'validation_error');
      expect(e.details.issues.map((i: { path: string }) => i.path)).toContain(path);
    }
    const e = await error(
      post({ name: 'big', cases: Array.from({ length: 101 }, () => oneCase) }),
      400,
      'validation_error',
    );
    expect(e.details.issues).toEqual([
      expect.objectContaining({ path: 'cases', message: expect.stringContaining('100') }),
    ]);
    await ok(post({ name: 'full', cases: Array.from({ length: 100 }, () => oneCase) }), 201);
    const files = await error(
      post({ name: 'f', cases: [{ ...oneCase, input: { fileIds: [randomUUID()] } }] }),
      400,
      'validation_error',
    );
    expect(files.details.issues[0].path).toBe('cases.0.input.fileIds.0');
    const { id } = await ok(post({ name: 'v', cases: [oneCase] }), 201);
    const version = await error(call('POST', `/v1/evals/${id}/runs`, writer, { version: 99 }), 400, 'validation_error');
    expect(version.details.issues[0].path).toBe('version');
    await error(call('POST', `/v1/evals/${id}/runs`, writer, { version: 0 }), 400, 'validation_error');
  });

  it('answers 404 for unknown ids and for every id of another workspace', async () => {
    const { id } = await ok(
      call('POST', `/v1/agents/${agentId}/evals`, writer, { name: 'mine', cases: [oneCase] }),
      201,
    );
    const run = await ok(call('POST', `/v1/evals/${id}/runs`, writer, {}), 202);
    const other = await signUp(h);
    const stranger = bearer(await createKey(h, other, ['agents:read', 'agents:write']));
    await error(
      call('POST', `/v1/agents/${agentId}/evals`, stranger, { name: 'x', cases: [oneCase] }),
      404,
      'not_found',
    );
    await error(call('GET', `/v1/agents/${agentId}/evals`, stranger), 404, 'not_found');
    await error(call('GET', `/v1/evals/${id}`, stranger), 404, 'not_found');
    await error(call('DELETE', `/v1/evals/${id}`, stranger), 404, 'not_found');
    await error(call('POST', `/v1/evals/${id}/runs`, stranger, {}), 404, 'not_found');
    await error(call('GET', `/v1/evals/${id}/runs`, stranger), 404, 'not_found');
    await error(call('GET', `/v1/eval-runs/${run.id}`, stranger), 404, 'not_found');
    await error(call('GET', `/v1/eval-runs/${randomUUID()}`, writer), 404, 'not_found');
    await error(call('GET', '/v1/eval-runs/not-a-uuid', writer), 404, 'not_found');
    await error(call('GET', `/v1/agents/${randomUUID()}/evals`, writer), 404, 'not_found');
  });

  it('needs agents:read to read and agents:write to change, for keys and session roles alike', async () => {
    const { id } = await ok(
      call('POST', `/v1/agents/${agentId}/evals`, writer, { name: 'acl', cases: [oneCase] }),
      201,
    );
    const run = await ok(call('POST', `/v1/evals/${id}/runs`, writer, {}), 202);
    const none = bearer(await createKey(h, owner, ['runs:read']));
    for (const headers of [reader, none]) {
      await error(
        call('POST', `/v1/agents/${agentId}/evals`, headers, { name: 'x', cases: [oneCase] }),
        403,
        'forbidden',
      );
      await error(call('DELETE', `/v1/evals/${id}`, headers), 403, 'forbidden');
      await error(call('POST', `/v1/evals/${id}/runs`, headers, {}), 403, 'forbidden');
    }
    for (const path of [
      `/v1/agents/${agentId}/evals`,
      `/v1/evals/${id}`,
      `/v1/evals/${id}/runs`,
      `/v1/eval-runs/${run.id}`,
    ]) {
      await error(call('GET', path, none), 403, 'forbidden');
      await ok(call('GET', path, reader), 200);
    }
    // a member may read but not change; an admin may change
    const member = await signUp(h);
    await addMember(h, member.userId, owner.workspaceId, 'member');
    const admin = await signUp(h);
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const as = (a: Account) => ({ cookie: a.cookie, 'x-workspace-id': owner.workspaceId });
    await ok(call('GET', `/v1/evals/${id}`, as(member)), 200);
    await error(call('POST', `/v1/evals/${id}/runs`, as(member), {}), 403, 'forbidden');
    await error(
      call('POST', `/v1/agents/${agentId}/evals`, as(member), { name: 'x', cases: [oneCase] }),
      403,
      'forbidden',
    );
    await ok(call('POST', `/v1/agents/${agentId}/evals`, as(admin), { name: 'x', cases: [oneCase] }), 201);
  });
});
