import { SCOPES } from '../../domain/identity/scopes';
import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp, uniqueEmail } from '../helpers/factories';

// the served document and response bodies, read loosely
type Json = Record<string, any>;

// The served /v1/openapi.json says exactly what the service accepts (docs/testing.md): what the schema
// fuzzer (test/fuzz/) found, one case each, as a user sees it.
describe('the document and the service agree', () => {
  let h: Harness;
  let auth: Record<string, string>;
  let doc: Json;

  beforeAll(async () => {
    h = await startApi();
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, [...SCOPES]));
    doc = await (await h.request('/v1/openapi.json')).json();
  });
  afterAll(() => h?.close());

  const send = (method: string, path: string, json?: unknown) => h.request(path, { method, headers: auth, json });
  const op = (method: string, path: string): Json => doc.paths[path][method];
  const bodySchema = (method: string, path: string): Json =>
    op(method, path).requestBody.content['application/json'].schema;

  it('declares the cursor shape, and every cursor the service serves has it', async () => {
    for (let i = 0; i < 3; i++) expect((await send('POST', '/v1/agents', { name: `c${i}` })).status).toBe(201);
    const page = await (await send('GET', '/v1/agents?limit=1')).json();
    const cursor = op('get', '/v1/agents').parameters.find((p: Json) => p.name === 'cursor');
    expect(page.nextCursor).toMatch(new RegExp(cursor.schema.pattern));
    expect((await send('GET', `/v1/agents?limit=1&cursor=${page.nextCursor}`)).status).toBe(200);
  });

  it('counts lengths in characters, as maxLength does: 200 emoji are a 200-character name', async () => {
    expect(bodySchema('post', '/v1/agents').properties.name).toMatchObject({ minLength: 1, maxLength: 200 });
    const agent = await send('POST', '/v1/agents', { name: '😀'.repeat(200) });
    expect(agent.status).toBe(201);
    expect((await send('POST', '/v1/agents', { name: '😀'.repeat(201) })).status).toBe(400);
    expect((await send('POST', '/v1/folders', { name: '📁'.repeat(255) })).status).toBe(201);
    expect((await send('POST', '/v1/folders', { name: '' })).status).toBe(400);
    expect(bodySchema('post', '/v1/folders').properties.name).toMatchObject({ minLength: 1, maxLength: 255 });
  });

  it('bounds a trimmed name as sent, and refuses a blank one', async () => {
    expect((await send('POST', '/v1/agents', { name: `${' '.repeat(150)}${'x'.repeat(100)}` })).status).toBe(400);
    expect((await send('POST', '/v1/agents', { name: ' \t\u3000' })).status).toBe(400);
    const ok = await send('POST', '/v1/agents', { name: '  padded  ' });
    expect((await ok.json()).name).toBe('padded');
  });

  it('refuses an e-mail address whose local part is over 64 characters, as format: email does', async () => {
    const res = await h.request('/v1/console/auth/sign-up', {
      method: 'POST',
      json: { email: `${'a'.repeat(65)}@example.com`, password: 'long enough password' },
    });
    expect(res.status).toBe(400);
    const dash = await h.request('/v1/console/auth/sign-up', {
      method: 'POST',
      json: { email: 'x@bad-.example.com', password: 'long enough password' },
    });
    expect(dash.status).toBe(400);
    const fine = await h.request('/v1/console/auth/sign-up', {
      method: 'POST',
      json: { email: uniqueEmail('a'.repeat(20)), password: 'long enough password' },
    });
    expect(fine.status).toBe(201);
  });

  it('lists the tools, models and presets an agent may name, and an update with an unknown key is refused', async () => {
    const create = bodySchema('post', '/v1/agents').properties;
    const tools = (await (await send('GET', '/v1/tools')).json()).tools.map((t: Json) => t.name);
    const models = (await (await send('GET', '/v1/models')).json()).models.map((m: Json) => m.id);
    expect([...create.tools.items.enum].sort()).toEqual([...tools].sort());
    expect([...create.modelId.enum].sort()).toEqual([...models].sort());
    expect(create.presetId.enum).toContain('general-assistant');
    const update = bodySchema('patch', '/v1/agents/{id}');
    expect(update).toMatchObject({ additionalProperties: false, minProperties: 1 });
    const agent = await (await send('POST', '/v1/agents', { name: 'strict' })).json();
    expect((await send('PATCH', `/v1/agents/${agent.id}`, { name: 'y', nmae: 'typo' })).status).toBe(400);
    expect((await send('PATCH', `/v1/agents/${agent.id}`, { name: 'y' })).status).toBe(200);
  });

  it('bounds local runs token counts to what the runs table holds: 400, not 500', async () => {
    const agent = await (await send('POST', '/v1/agents', { name: 'local' })).json();
    const run = (outputTokens: number) => ({
      agentId: agent.id,
      runs: [
        {
          status: 'succeeded',
          startedAt: '2026-11-01T10:00:00Z',
          completedAt: '2026-11-01T10:00:01Z',
          usage: { inputTokens: 0, outputTokens },
        },
      ],
    });
    expect((await send('POST', '/v1/local-runs', run(2 ** 31))).status).toBe(400);
    expect((await send('POST', '/v1/local-runs', run(2 ** 31 - 1))).status).toBe(201);
  });

  it('declares the error answers of every operation', () => {
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const [method, operation] of Object.entries(methods as Record<string, Json>)) {
        const statuses = Object.keys(operation.responses);
        const where = `${method} ${path}`;
        if (operation.security.length)
          expect([where, statuses]).toEqual([where, expect.arrayContaining(['401', '403', '429'])]);
        if (path.includes('{')) expect([where, statuses]).toEqual([where, expect.arrayContaining(['404'])]);
        if (operation.requestBody)
          expect([where, statuses]).toEqual([where, expect.arrayContaining(['400', '413', '415'])]);
      }
    }
    expect(Object.keys(op('post', '/v1/runs/{id}/cancel').responses)).toContain('409');
    expect(Object.keys(op('post', '/v1/runs').responses)).toEqual(expect.arrayContaining(['402', '409']));
  });

  it('links each create to the operations on the created id', () => {
    const links = (method: string, path: string) => Object.keys(op(method, path).responses['201'].links ?? {}).sort();
    expect(links('post', '/v1/agents')).toEqual(
      [
        'deleteV1AgentsId',
        'getV1AgentsId',
        'getV1AgentsIdCopilotSessions',
        'getV1AgentsIdDefinition',
        'getV1AgentsIdEvals',
        'getV1AgentsIdProposals',
        'getV1AgentsIdVersions',
        'patchV1AgentsId',
        'postV1AgentsIdCopilot',
        'postV1AgentsIdEvals',
        'postV1AgentsIdProposals',
        'postV1Runs',
      ].sort(),
    );
    expect(op('post', '/v1/agents').responses['201'].links.postV1Runs).toEqual({
      operationId: 'postV1Runs',
      requestBody: { agentId: '$response.body#/id' },
    });
    expect(links('post', '/v1/runs')).toEqual(
      expect.arrayContaining(['getV1RunsId', 'postV1RunsIdCancel', 'postV1RunsIdApprove', 'getV1RunsIdEvents']),
    );
    expect(links('post', '/v1/webhooks')).toEqual(['deleteV1WebhooksId', 'getV1WebhooksIdDeliveries']);
    expect(links('post', '/v1/api-keys')).toEqual(['deleteV1ApiKeysId', 'putV1ApiKeysIdSpendCap']);
    expect(links('post', '/v1/files')).toEqual([
      'deleteV1FilesId',
      'getV1FilesId',
      'getV1FilesIdContent',
      'patchV1FilesId',
    ]);
  });
});
