import { addMember, bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { createAgent } from '../helpers/runs';

// Knowledge documents and their full-text search (docs/api/knowledge.md).
type Headers = Record<string, string>;

const CODES: Record<number, string> = {
  400: 'validation_error',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
};

async function expectError(response: Promise<Response>, status: number): Promise<any> {
  const res = await response;
  const body = await res.json();
  expect({ status: res.status, code: body.error?.code }).toEqual({ status, code: CODES[status] });
  return body.error;
}

const post = (auth: Headers, json: unknown) => ({ method: 'POST', headers: auth, json });
const patch = (auth: Headers, json: unknown) => ({ method: 'PATCH', headers: auth, json });

function upload(h: Harness, auth: Headers, name: string, mime: string, body: string | Buffer): Promise<any> {
  return h
    .request('/v1/files', {
      method: 'POST',
      headers: { ...auth, 'content-type': mime, 'x-filename': encodeURIComponent(name) },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    })
    .then(async (res) => {
      if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
      return res.json();
    });
}

describe('knowledge documents', () => {
  let h: Harness;
  let owner: Account;
  let auth: Headers;
  beforeAll(async () => {
    h = await startApi();
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['agents:read', 'agents:write', 'files:read', 'files:write', 'runs:read']));
  });
  afterAll(() => h.close());

  it('creates from text, reads, changes, lists and deletes a document', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const created = await h.request(
      '/v1/knowledge',
      post(auth, { title: 'Refund policy', text: 'Refunds are paid within 14 days.', agentIds: [agent.id, agent.id] }),
    );
    expect(created.status).toBe(201);
    const doc = await created.json();
    expect(Object.keys(doc).sort()).toEqual(
      ['agentIds', 'chars', 'createdAt', 'id', 'projectId', 'source', 'title', 'updatedAt'].sort(),
    );
    expect(doc).toMatchObject({
      title: 'Refund policy',
      source: { type: 'text', fileId: null, format: 'text' },
      chars: 32,
      agentIds: [agent.id],
      projectId: null,
    });

    const one = await (await h.request(`/v1/knowledge/${doc.id}`, { headers: auth })).json();
    expect(one).toMatchObject({ id: doc.id, text: 'Refunds are paid within 14 days.' });

    const { id: projectId } = await (await h.request('/v1/projects', post(auth, { name: 'Support' }))).json();
    const changed = await h.request(
      `/v1/knowledge/${doc.id}`,
      patch(auth, { title: 'Refunds', text: 'Refunds take 30 days.', agentIds: [], projectId }),
    );
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ title: 'Refunds', chars: 21, agentIds: [], projectId });

    const listed = await (await h.request(`/v1/knowledge?projectId=${projectId}`, { headers: auth })).json();
    expect(listed.knowledge.map((d: any) => d.id)).toEqual([doc.id]);
    expect(listed.knowledge[0].text).toBeUndefined();
    expect(listed.nextCursor).toBeNull();

    expect((await h.request(`/v1/knowledge/${doc.id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    await expectError(h.request(`/v1/knowledge/${doc.id}`, { headers: auth }), 404);
  });

  it('takes only a project of the workspace, and forgets a deleted one', async () => {
    const other = await signUp(h);
    const stranger = bearer(await createKey(h, other, ['agents:read', 'agents:write']));
    const { id: theirs } = await (await h.request('/v1/projects', post(stranger, { name: 'Theirs' }))).json();
    for (const projectId of [theirs, '00000000-0000-4000-8000-00000000000a']) {
      const created = await h.request('/v1/knowledge', post(auth, { title: 't', text: 'x', projectId }));
      expect(created.status).toBe(400);
      expect((await created.json()).error.details.issues).toEqual([
        { path: 'projectId', message: expect.stringContaining(projectId) },
      ]);
    }
    const { id: projectId } = await (await h.request('/v1/projects', post(auth, { name: 'Mine' }))).json();
    const doc = await (await h.request('/v1/knowledge', post(auth, { title: 't', text: 'x', projectId }))).json();
    expect(doc.projectId).toBe(projectId);
    const refused = await h.request(`/v1/knowledge/${doc.id}`, patch(auth, { projectId: theirs }));
    expect(refused.status).toBe(400);
    const cleared = await (await h.request(`/v1/knowledge/${doc.id}`, patch(auth, { projectId: null }))).json();
    expect(cleared.projectId).toBeNull();
    await h.request(`/v1/knowledge/${doc.id}`, patch(auth, { projectId }));
    expect((await h.request(`/v1/projects/${projectId}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    expect((await (await h.request(`/v1/knowledge/${doc.id}`, { headers: auth })).json()).projectId).toBeNull();
  });

  it('lists by agent, newest first, in pages', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await h.request(
        '/v1/knowledge',
        post(auth, { title: `doc ${i}`, text: `t${i}`, agentIds: [agent.id] }),
      );
      ids.push((await res.json()).id);
    }
    await h.request('/v1/knowledge', post(auth, { title: 'unlinked', text: 'x' }));
    const first = await (await h.request(`/v1/knowledge?agentId=${agent.id}&limit=2`, { headers: auth })).json();
    expect(first.knowledge.map((d: any) => d.id)).toEqual([ids[2], ids[1]]);
    const second = await (
      await h.request(`/v1/knowledge?agentId=${agent.id}&limit=2&cursor=${first.nextCursor}`, { headers: auth })
    ).json();
    expect(second).toEqual({ knowledge: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
  });

  it('extracts the text of text, markdown, csv, json and html library files', async () => {
    const cases: Array<[string, string, string, string, RegExp]> = [
      ['notes.txt', 'text/plain', 'plain words here', 'text', /^plain words here$/],
      ['guide.md', 'text/markdown', '# Title\n\n*bold* text', 'markdown', /# Title/],
      [
        'table.csv',
        'text/csv',
        'name,city\r\n"Lovelace, Ada","London ""UK"""\r\n',
        'csv',
        /Lovelace, Ada \| London "UK"/,
      ],
      ['data.json', 'application/json', '{"a":{"b":[1,"two"]},"c":null}', 'json', /a\.b\.0: 1\na\.b\.1: two/],
      [
        'page.html',
        'text/html',
        '<html><head><style>p{}</style><script>alert(1)</script></head><body><p>Fish &amp; chips</p><p>&#169; us</p></body></html>',
        'html',
        /^Fish & chips\n© us$/,
      ],
      ['readme.md', 'application/octet-stream', 'by extension', 'markdown', /by extension/],
    ];
    for (const [name, mime, body, format, expected] of cases) {
      const file = await upload(h, auth, name, mime, body);
      const res = await h.request('/v1/knowledge', post(auth, { title: name, fileId: file.id }));
      expect([name, res.status]).toEqual([name, 201]);
      const doc = await res.json();
      expect(doc.source).toEqual({ type: 'file', fileId: file.id, format });
      const text = (await (await h.request(`/v1/knowledge/${doc.id}`, { headers: auth })).json()).text;
      expect([name, text]).toEqual([name, expect.stringMatching(expected)]);
      expect(doc.chars).toBe(text.length);
    }
    expect(cases).toHaveLength(6);
  });

  it('refuses files of other types, not UTF-8, malformed json/csv, with the path fileId', async () => {
    const bad: Array<[string, string, string | Buffer, RegExp]> = [
      ['photo.png', 'image/png', Buffer.from([137, 80, 78, 71]), /text, markdown, csv, json or html/],
      ['latin.txt', 'text/plain', Buffer.from([0x63, 0x61, 0x66, 0xe9]), /UTF-8/],
      ['broken.json', 'application/json', '{"a":', /valid JSON/],
      ['broken.csv', 'text/csv', 'a,"b\n', /never closes/],
    ];
    for (const [name, mime, body, message] of bad) {
      const file = await upload(h, auth, name, mime, body);
      const err = await expectError(h.request('/v1/knowledge', post(auth, { title: name, fileId: file.id })), 400);
      expect(err.details.issues).toEqual([{ path: 'fileId', message: expect.stringMatching(message) }]);
    }
  });

  it('holds a 5 MiB document from a file; over SVC_MAX_KNOWLEDGE_CHARS is 400 naming the limit', async () => {
    const five = 'lorem ipsum dolor sit amet consectetur '
      .repeat(Math.ceil((5 * 1024 * 1024) / 39))
      .slice(0, 5 * 1024 * 1024);
    const file = await upload(h, auth, 'big.txt', 'text/plain', five);
    const res = await h.request('/v1/knowledge', post(auth, { title: 'big', fileId: file.id }));
    expect(res.status).toBe(201);
    const doc = await res.json();
    expect(doc.chars).toBe(5 * 1024 * 1024);
    const found = await (await h.request('/v1/knowledge/search?q=consectetur', { headers: auth })).json();
    expect(found.results.map((r: any) => r.documentId)).toContain(doc.id);

    const over = await upload(h, auth, 'over.txt', 'text/plain', `${five}x`);
    const err = await expectError(h.request('/v1/knowledge', post(auth, { title: 'over', fileId: over.id })), 400);
    expect(err.details.issues[0]).toMatchObject({ path: 'fileId', message: expect.stringContaining('5242880') });
  }, 60_000);

  it('indexes a document whose words would overflow a tsvector on its beginning instead of failing', async () => {
    // ~4 MiB of distinct words: the full vector would pass PostgreSQL's 1 MB tsvector limit.
    const words = Array.from({ length: 450_000 }, (_, i) => `w${i.toString(36)}q`).join(' ');
    const file = await upload(h, auth, 'words.txt', 'text/plain', `firstword ${words}`);
    const res = await h.request('/v1/knowledge', post(auth, { title: 'many words', fileId: file.id }));
    expect(res.status).toBe(201);
    const found = await (await h.request('/v1/knowledge/search?q=firstword', { headers: auth })).json();
    expect(found.results.map((r: any) => r.documentId)).toEqual([(await res.json()).id]);
  }, 60_000);

  it('caps text given in the body by SVC_MAX_KNOWLEDGE_CHARS and the JSON body limit', async () => {
    const small = await startApi({ maxKnowledgeChars: 10 });
    try {
      const o = await signUp(small);
      const a = bearer(await createKey(small, o, ['agents:write', 'agents:read']));
      expect((await small.request('/v1/knowledge', post(a, { title: 't', text: '0123456789' }))).status).toBe(201);
      const err = await expectError(small.request('/v1/knowledge', post(a, { title: 't', text: '0123456789x' })), 400);
      expect(err.details.issues).toEqual([{ path: 'text', message: expect.stringContaining('10 characters') }]);
    } finally {
      await small.close();
    }
    await expectError(
      h.request('/v1/knowledge', post(auth, { title: 't', text: 'x'.repeat(h.config.maxJsonBytes) })),
      413,
    );
  });

  it('answers malformed bodies with 400 and the path of each issue', async () => {
    const cases: Array<[unknown, string[]]> = [
      [{ text: 'x' }, ['title']],
      [{ title: 't' }, ['text']],
      [{ title: 't', text: 'x', fileId: '00000000-0000-4000-8000-000000000001' }, ['text']],
      [{ title: 't', text: 'x', extra: 1 }, ['']],
      [{ title: 't', text: 'a\u0000b' }, ['text']],
      [{ title: 't', text: 'x', agentIds: ['nope'] }, ['agentIds.0']],
      [{ title: 't', text: 'x', agentIds: ['00000000-0000-4000-8000-000000000001'] }, ['agentIds.0']],
      [{ title: 't', fileId: '00000000-0000-4000-8000-000000000001' }, ['fileId']],
      [{ title: 't', text: 'x', projectId: 'p' }, ['projectId']],
    ];
    for (const [body, paths] of cases) {
      const err = await expectError(h.request('/v1/knowledge', post(auth, body)), 400);
      expect([body, err.details.issues.map((i: any) => i.path)]).toEqual([body, paths]);
    }
    const doc = await (await h.request('/v1/knowledge', post(auth, { title: 't', text: 'x' }))).json();
    await expectError(h.request(`/v1/knowledge/${doc.id}`, patch(auth, {})), 400);
    await expectError(h.request(`/v1/knowledge/${doc.id}`, patch(auth, { source: 'x' })), 400);
  });

  it("keeps other workspaces' documents, agents and files out: 404 / 400", async () => {
    const other = await signUp(h);
    const otherAuth = bearer(await createKey(h, other, ['agents:read', 'agents:write', 'files:write']));
    const theirs = await (await h.request('/v1/knowledge', post(otherAuth, { title: 'secret', text: 'zebra' }))).json();
    const theirAgent = await createAgent(h, otherAuth, { presetId: 'scripted' });
    const theirFile = await upload(h, otherAuth, 'f.txt', 'text/plain', 'zebra');
    await expectError(h.request(`/v1/knowledge/${theirs.id}`, { headers: auth }), 404);
    await expectError(h.request(`/v1/knowledge/${theirs.id}`, patch(auth, { title: 'mine' })), 404);
    await expectError(h.request(`/v1/knowledge/${theirs.id}`, { method: 'DELETE', headers: auth }), 404);
    await expectError(h.request('/v1/knowledge/not-a-uuid', { headers: auth }), 404);
    await expectError(
      h.request('/v1/knowledge', post(auth, { title: 't', text: 'x', agentIds: [theirAgent.id] })),
      400,
    );
    await expectError(h.request('/v1/knowledge', post(auth, { title: 't', fileId: theirFile.id })), 400);
    const search = await (await h.request('/v1/knowledge/search?q=zebra', { headers: auth })).json();
    expect(search).toEqual({ results: [] });
    const listed = await (await h.request(`/v1/knowledge?agentId=${theirAgent.id}`, { headers: auth })).json();
    expect(listed.knowledge).toEqual([]);
  });

  it('needs agents:read to read and agents:write to change, for keys and session roles', async () => {
    const readOnly = bearer(await createKey(h, owner, ['agents:read']));
    const none = bearer(await createKey(h, owner, ['runs:read']));
    const doc = await (await h.request('/v1/knowledge', post(auth, { title: 't', text: 'x' }))).json();
    for (const [path, init] of [
      ['/v1/knowledge', post(readOnly, { title: 't', text: 'x' })],
      [`/v1/knowledge/${doc.id}`, patch(readOnly, { title: 'u' })],
      [`/v1/knowledge/${doc.id}`, { method: 'DELETE', headers: readOnly }],
      ['/v1/knowledge', { headers: none }],
      [`/v1/knowledge/${doc.id}`, { headers: none }],
      ['/v1/knowledge/search?q=x', { headers: none }],
    ] as const) {
      await expectError(h.request(path, init as RequestInit), 403);
    }
    expect((await h.request(`/v1/knowledge/${doc.id}`, { headers: readOnly })).status).toBe(200);
    expect((await h.request('/v1/knowledge/search?q=x', { headers: readOnly })).status).toBe(200);

    const member = await signUp(h);
    const admin = await signUp(h);
    await addMember(h, member.userId, owner.workspaceId, 'member');
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const as = (who: Account) => ({ cookie: who.cookie, 'X-Workspace-Id': owner.workspaceId });
    expect((await h.request('/v1/knowledge', { headers: as(member) })).status).toBe(200);
    await expectError(h.request('/v1/knowledge', post(as(member), { title: 't', text: 'x' })), 403);
    await expectError(h.request(`/v1/knowledge/${doc.id}`, patch(as(member), { title: 'u' })), 403);
    expect((await h.request('/v1/knowledge', post(as(admin), { title: 't', text: 'x' }))).status).toBe(201);
    expect((await h.request(`/v1/knowledge/${doc.id}`, { method: 'DELETE', headers: as(admin) })).status).toBe(204);
  });
});

describe('knowledge search', () => {
  let h: Harness;
  let auth: Headers;
  beforeAll(async () => {
    h = await startApi();
    auth = bearer(await createKey(h, await signUp(h), ['agents:read', 'agents:write']));
  });
  afterAll(() => h.close());

  const create = async (title: string, text: string, agentIds: string[] = []) =>
    (await (await h.request('/v1/knowledge', post(auth, { title, text, agentIds }))).json()).id as string;
  const search = async (qs: string) => {
    const res = await h.request(`/v1/knowledge/search?${qs}`, { headers: auth });
    expect(res.status).toBe(200);
    return (await res.json()).results as any[];
  };

  it('ranks by full-text relevance with stemming and highlights the matches in snippets', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const once = await create('Office plants', 'Water the ferns on Mondays. The cactus needs little.');
    const often = await create('Watering guide', 'Watering schedule: water daily, water the roots, watered soil.', [
      agent.id,
    ]);
    await create('Unrelated', 'Quarterly revenue grew.');

    const results = await search('q=watering');
    expect(results.map((r) => r.documentId)).toEqual([often, once]);
    expect(results[0].score).toBeGreaterThan(results[1].score);
    expect(results[0]).toMatchObject({
      title: 'Watering guide',
      snippet: expect.stringContaining('<mark>Watering</mark>'),
    });
    expect(Object.keys(results[0]).sort()).toEqual(['documentId', 'score', 'snippet', 'title']);

    expect((await search(`q=water&agentId=${agent.id}`)).map((r) => r.documentId)).toEqual([often]);
    expect((await search('q=%22water+the+ferns%22')).map((r) => r.documentId)).toEqual([once]);
    expect((await search('q=water+-cactus')).map((r) => r.documentId)).toEqual([often]);
    expect((await search('q=water&limit=1')).map((r) => r.documentId)).toEqual([often]);
    expect(await search('q=nonexistentword')).toEqual([]);
    expect(await search('q=the+and')).toEqual([]);
    // web-search syntax never fails to parse
    expect(await search(`q=${encodeURIComponent('"unclosed & | ! :* (')}`)).toEqual([]);
  });

  it('follows changes of the title and text', async () => {
    const id = await create('Alpha', 'nothing special');
    expect((await search('q=gamma')).map((r) => r.documentId)).not.toContain(id);
    await h.request(`/v1/knowledge/${id}`, patch(auth, { title: 'Gamma rays' }));
    expect((await search('q=gamma')).map((r) => r.documentId)).toContain(id);
    await h.request(`/v1/knowledge/${id}`, patch(auth, { title: 'Alpha', text: 'delta waves' }));
    expect((await search('q=gamma')).map((r) => r.documentId)).not.toContain(id);
    expect((await search('q=delta')).map((r) => r.documentId)).toContain(id);
  });

  it('answers a missing, blank, overlong or NUL-bearing q, and bad limits or agentIds, with 400', async () => {
    for (const qs of [
      '',
      'q=',
      'q=%20%20',
      `q=${'x'.repeat(501)}`,
      'q=a%00b',
      'q=x&limit=0',
      'q=x&limit=51',
      'q=x&agentId=nope',
    ]) {
      await expectError(h.request(`/v1/knowledge/search?${qs}`, { headers: auth }), 400);
    }
  });
});
