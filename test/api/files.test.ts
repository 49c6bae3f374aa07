import { createHash, randomBytes } from 'node:crypto';
import { checkMime } from '../../api/uploads';
import { findWorkspaceFiles } from '../../domain/files/files';
import { loadConfig } from '../../platform/config';
import { bearer, createKey, signUp } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { freshStorageUrl, storedObjects } from '../helpers/storedObjects';

// Files and folders (docs/api/files.md), their errors 400/404/409/413/415 (docs/api/errors.md), keyset pagination.
// They run on the default file:// storage, and on s3:// (a moto server) under `npm run test:s3`.
type Headers = Record<string, string>;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function account(h: Harness): Promise<Headers> {
  return bearer(await createKey(h, await signUp(h), ['files:read', 'files:write']));
}

interface RawOpts {
  name?: string;
  mime?: string;
  query?: string;
}

function uploadRaw(h: Harness, auth: Headers, bytes: Uint8Array, opts: RawOpts = {}) {
  const headers: Headers = { 'x-filename': encodeURIComponent(opts.name ?? 'blob.bin'), ...auth };
  if (opts.mime !== '') headers['content-type'] = opts.mime ?? 'application/octet-stream';
  return h.request(`/v1/files${opts.query ?? ''}`, { method: 'POST', headers, body: bytes });
}

function uploadForm(h: Harness, auth: Headers, parts: Array<[string, string | Blob, string?]>) {
  const form = new FormData();
  for (const [name, value, filename] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, filename);
  }
  return h.request('/v1/files', { method: 'POST', headers: auth, body: form });
}

const json = (auth: Headers, method: string, body: unknown) => ({ method, headers: auth, json: body });

const CODES: Record<number, string> = {
  400: 'validation_error',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/** The response is the error envelope (docs/api/errors.md) with that status. */
async function expectError(response: Promise<Response>, status: number) {
  const res = await response;
  expect({ status: res.status, code: (await res.json()).error?.code }).toEqual({ status, code: CODES[status] });
}

describe('files and folders', () => {
  let h: Harness;
  beforeAll(async () => {
    // storage of the file's own (a directory, or a prefix of the bucket under `npm run test:s3`), so what it
    // checks was "stored" or "left behind" is its own doing while other files upload at the same time
    h = await startApi({ storageUrl: await freshStorageUrl(loadConfig(process.env), 'files') });
  });
  afterAll(() => h.close());

  it('stores a raw upload and serves the identical bytes with safe download headers', async () => {
    const auth = await account(h);
    const bytes = new Uint8Array([0, 1, 2, 0, 255, 254, 0, ...randomBytes(4000), 0]);
    const name = 'résumé "final" (1).pdf';
    const res = await uploadRaw(h, auth, bytes, { name, mime: 'application/pdf' });
    expect(res.status).toBe(201);
    const file = await res.json();
    expect(Object.keys(file).sort()).toEqual(['createdAt', 'filename', 'folderId', 'id', 'mime', 'sha256', 'size']);
    expect(file).toMatchObject({ filename: name, mime: 'application/pdf', size: bytes.length, folderId: null });
    expect(file.sha256).toBe(sha256(bytes));
    expect(await (await h.request(`/v1/files/${file.id}`, { headers: auth })).json()).toEqual(file);

    const content = await h.request(`/v1/files/${file.id}/content`, { headers: auth });
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('application/pdf');
    expect(content.headers.get('content-length')).toBe(String(bytes.length));
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    const disposition = content.headers.get('content-disposition')!;
    expect(disposition).toMatch(/^attachment; /);
    expect(decodeURIComponent(/filename\*=UTF-8''(\S+)/.exec(disposition)![1])).toBe(name);
    expect(Buffer.from(await content.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    expect(await storedObjects(h.config)).toContain(file.id);

    // A printable name that is not percent-encoding is taken as sent (the client package sends it so).
    const literal = await uploadRaw(h, { ...auth, 'x-filename': '100%.txt' }, new Uint8Array([1]));
    expect((await literal.json()).filename).toBe('100%.txt');
  });

  it('accepts multipart/form-data with a "file" part and a folderId field', async () => {
    const auth = await account(h);
    const folder = await (await h.request('/v1/folders', json(auth, 'POST', { name: 'inbox' }))).json();
    const bytes = new Uint8Array([0, ...randomBytes(3000), 0, 13, 10]);
    const res = await uploadForm(h, auth, [
      ['file', new Blob([bytes], { type: 'image/png' }), 'shot.png'],
      ['folderId', folder.id],
    ]);
    expect(res.status).toBe(201);
    const file = await res.json();
    expect(file).toMatchObject({ filename: 'shot.png', mime: 'image/png', size: bytes.length, folderId: folder.id });
    expect(file.sha256).toBe(sha256(bytes));
    const content = await h.request(`/v1/files/${file.id}/content`, { headers: auth });
    expect(Buffer.from(await content.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });

  it('rejects bad uploads with 400 or 415 and stores nothing', async () => {
    const auth = await account(h);
    const before = await storedObjects(h.config);
    const one = new Uint8Array([1]);
    await expectError(uploadRaw(h, auth, one, { mime: '' }), 415);
    await expectError(uploadRaw(h, auth, one, { mime: 'not a type' }), 415);
    const nameless = { ...auth, 'content-type': 'text/plain' };
    await expectError(h.request('/v1/files', { method: 'POST', headers: nameless, body: one }), 400);
    for (const name of ['a/b.txt', 'nul\0.txt', 'x'.repeat(256)]) {
      await expectError(uploadRaw(h, auth, one, { name }), 400);
    }
    await expectError(uploadRaw(h, auth, new Uint8Array(0)), 400);
    await expectError(uploadRaw(h, auth, one, { query: '?folderId=nope' }), 400);
    await expectError(uploadRaw(h, auth, one, { query: `?folderId=${crypto.randomUUID()}` }), 400);
    await expectError(uploadForm(h, auth, [['other', new Blob([one]), 'a.bin']]), 400);
    await expectError(uploadForm(h, auth, [['file', new Blob([]), 'empty.bin']]), 400);
    await expectError(
      uploadForm(h, auth, [
        ['file', new Blob([one]), 'a.bin'],
        ['folderId', 'nope'],
      ]),
      400,
    );
    expect((await (await h.request('/v1/files', { headers: auth })).json()).files).toEqual([]);
    expect(await storedObjects(h.config)).toEqual(before);
  });

  it('judges a hostile media type at once and keeps valid types with parameters as sent', async () => {
    const auth = await account(h);
    const one = new Uint8Array([1]);
    // 255 characters: a long type/subtype, 22 empty quoted parameters, then a stray character. A backtracking
    // pattern takes over a second on this (and forever on longer runs of `;a=""`); a parser answers at once.
    const tail = ';a=""'.repeat(22) + 'x';
    const hostile = `${'a'.repeat(62)}/${'b'.repeat(255 - tail.length - 63)}${tail}`;
    expect(hostile).toHaveLength(255);
    await expectError(uploadRaw(h, auth, one, { mime: hostile }), 415);
    // No clock: judged 50 times over, a backtracking pattern (over a second each) outlasts the test's
    // timeout by far, while a parser takes microseconds in all.
    for (let i = 0; i < 50; i++) expect(checkMime(hostile)).toBeNull();
    for (const bad of [
      'text/plain;',
      'text/plain; charset',
      'text/plain; a="unterminated',
      `text/${'x'.repeat(252)}`,
    ]) {
      await expectError(uploadRaw(h, auth, one, { mime: bad }), 415);
    }

    for (const mime of ['text/plain; charset=utf-8', 'application/vnd.a+json;profile="urn:x; y"; q=1']) {
      const res = await uploadRaw(h, auth, one, { mime });
      expect(res.status).toBe(201);
      const file = await res.json();
      expect(file.mime).toBe(mime);
      const content = await h.request(`/v1/files/${file.id}/content`, { headers: auth });
      expect(content.headers.get('content-type')).toBe(mime);
    }
  }, 30_000);

  it('renames and moves files between folders and the root', async () => {
    const auth = await account(h);
    const folder = await (await h.request('/v1/folders', json(auth, 'POST', { name: 'docs' }))).json();
    const file = await (await uploadRaw(h, auth, new Uint8Array([7]), { name: 'a.txt', mime: 'text/plain' })).json();
    const patch = { filename: 'b.txt', folderId: folder.id };
    const moved = await h.request(`/v1/files/${file.id}`, json(auth, 'PATCH', patch));
    expect(moved.status).toBe(200);
    expect(await moved.json()).toEqual({ ...file, filename: 'b.txt', folderId: folder.id });
    const list = (query: string) => h.request(`/v1/files?${query}`, { headers: auth }).then((r) => r.json());
    expect((await list(`folderId=${folder.id}`)).files.map((f: { id: string }) => f.id)).toEqual([file.id]);
    expect((await list('folderId=root')).files).toEqual([]);
    const back = await (await h.request(`/v1/files/${file.id}`, json(auth, 'PATCH', { folderId: null }))).json();
    expect(back.folderId).toBeNull();
    expect((await list('folderId=root')).files.map((f: { id: string }) => f.id)).toEqual([file.id]);
    await expectError(h.request(`/v1/files/${file.id}`, json(auth, 'PATCH', { filename: 'x/y' })), 400);
    const ghost = crypto.randomUUID();
    await expectError(h.request(`/v1/files/${file.id}`, json(auth, 'PATCH', { folderId: ghost })), 400);
  });

  it('lists files and folders newest first with keyset pagination and parent filters', async () => {
    const auth = await account(h);
    const top = await (await h.request('/v1/folders', json(auth, 'POST', { name: 'top' }))).json();
    expect(Object.keys(top).sort()).toEqual(['createdAt', 'id', 'name', 'parentId', 'updatedAt']);
    const children: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await h.request('/v1/folders', json(auth, 'POST', { name: `child ${i}`, parentId: top.id }));
      expect(res.status).toBe(201);
      children.unshift((await res.json()).id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query = `parentId=${top.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await h.request(`/v1/folders?${query}`, { headers: auth });
      const body: { folders: Array<{ id: string; parentId: string }>; nextCursor: string | null } = await res.json();
      expect(body.folders.length).toBeLessThanOrEqual(2);
      expect(body.folders.every((f) => f.parentId === top.id)).toBe(true);
      seen.push(...body.folders.map((f) => f.id));
      cursor = body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(children);
    const roots = await (await h.request('/v1/folders?parentId=root', { headers: auth })).json();
    expect(roots.folders.map((f: { id: string }) => f.id)).toEqual([top.id]);
    expect((await (await h.request('/v1/folders', { headers: auth })).json()).folders).toHaveLength(6);

    const files: string[] = [];
    for (let i = 0; i < 3; i++) files.unshift((await (await uploadRaw(h, auth, new Uint8Array([i]))).json()).id);
    const first = await (await h.request('/v1/files?limit=2', { headers: auth })).json();
    const second = await (await h.request(`/v1/files?limit=2&cursor=${first.nextCursor}`, { headers: auth })).json();
    expect([...first.files, ...second.files].map((f: { id: string }) => f.id)).toEqual(files);
    expect(second.nextCursor).toBeNull();
    await expectError(h.request('/v1/files?cursor=garbage', { headers: auth }), 400);
  });

  it('renames and moves folders, but never into themselves or their descendants', async () => {
    const auth = await account(h);
    const create = async (name: string, parentId?: string) =>
      (await h.request('/v1/folders', json(auth, 'POST', { name, parentId }))).json();
    const a = await create('a');
    const b = await create('b', a.id);
    const c = await create('c', b.id);
    for (const parentId of [a.id, b.id, c.id]) {
      await expectError(h.request(`/v1/folders/${a.id}`, json(auth, 'PATCH', { parentId })), 400);
    }
    const moved = await h.request(`/v1/folders/${c.id}`, json(auth, 'PATCH', { name: 'c2', parentId: a.id }));
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({ id: c.id, name: 'c2', parentId: a.id });
    const rooted = await (await h.request(`/v1/folders/${b.id}`, json(auth, 'PATCH', { parentId: null }))).json();
    expect(rooted.parentId).toBeNull();
    expect((await h.request(`/v1/folders/${a.id}`, json(auth, 'PATCH', { parentId: b.id }))).status).toBe(200);
  });

  it('deletes files with their bytes, and folders only when empty', async () => {
    const auth = await account(h);
    const folder = await (await h.request('/v1/folders', json(auth, 'POST', { name: 'full' }))).json();
    const sub = await (await h.request('/v1/folders', json(auth, 'POST', { name: 'sub', parentId: folder.id }))).json();
    const into = { query: `?folderId=${folder.id}` };
    const file = await (await uploadRaw(h, auth, new Uint8Array([1, 2, 3]), into)).json();
    expect(file.folderId).toBe(folder.id);
    expect(await storedObjects(h.config)).toContain(file.id);

    await expectError(h.request(`/v1/folders/${folder.id}`, { method: 'DELETE', headers: auth }), 409);
    expect((await h.request(`/v1/files/${file.id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    await expectError(h.request(`/v1/files/${file.id}`, { headers: auth }), 404);
    await expectError(h.request(`/v1/files/${file.id}/content`, { headers: auth }), 404);
    await expectError(h.request(`/v1/files/${file.id}`, { method: 'DELETE', headers: auth }), 404);
    expect((await storedObjects(h.config)).some((p) => p.includes(file.id))).toBe(false);

    await expectError(h.request(`/v1/folders/${folder.id}`, { method: 'DELETE', headers: auth }), 409);
    expect((await h.request(`/v1/folders/${sub.id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    expect((await h.request(`/v1/folders/${folder.id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    await expectError(h.request(`/v1/folders/${folder.id}`, { method: 'DELETE', headers: auth }), 404);
  });

  it('answers 404 for every id of another workspace, and 400 when one is referenced', async () => {
    const mine = await account(h);
    const theirs = await account(h);
    const folder = await (await h.request('/v1/folders', json(theirs, 'POST', { name: 'private' }))).json();
    const file = await (await uploadRaw(h, theirs, new Uint8Array([9]), { query: `?folderId=${folder.id}` })).json();
    const attempts: Array<[string, RequestInit & { json?: unknown }]> = [
      [`/v1/files/${file.id}`, { headers: mine }],
      [`/v1/files/${file.id}/content`, { headers: mine }],
      [`/v1/files/${file.id}`, json(mine, 'PATCH', { filename: 'stolen' })],
      [`/v1/files/${file.id}`, { method: 'DELETE', headers: mine }],
      [`/v1/folders/${folder.id}`, json(mine, 'PATCH', { name: 'stolen' })],
      [`/v1/folders/${folder.id}`, { method: 'DELETE', headers: mine }],
    ];
    for (const [url, init] of attempts) await expectError(h.request(url, init), 404);
    await expectError(uploadRaw(h, mine, new Uint8Array([1]), { query: `?folderId=${folder.id}` }), 400);
    await expectError(h.request('/v1/folders', json(mine, 'POST', { name: 'x', parentId: folder.id })), 400);
    await expectError(h.request(`/v1/files?folderId=${folder.id}`, { headers: mine }), 400);
    expect((await (await h.request('/v1/files', { headers: mine })).json()).files).toEqual([]);
    // Nothing of theirs changed.
    expect(await (await h.request(`/v1/files/${file.id}`, { headers: theirs })).json()).toEqual(file);

    const own = await (await uploadRaw(h, mine, new Uint8Array([2]))).json();
    const em = h.orm.em.fork();
    const [row] = await em.getConnection().execute('select workspace_id from files where id = ?', [own.id]);
    const workspaceId: string = row.workspace_id;
    expect(await findWorkspaceFiles(em, workspaceId, [own.id, file.id, 'not-a-uuid', own.id])).toEqual([own.id]);
  });

  it('requires files:write to upload and files:read to read', async () => {
    const owner = await signUp(h);
    const reader = bearer(await createKey(h, owner, ['files:read']));
    const writer = bearer(await createKey(h, owner, ['files:write']));
    await expectError(uploadRaw(h, reader, new Uint8Array([1])), 403);
    await expectError(h.request('/v1/folders', json(reader, 'POST', { name: 'x' })), 403);
    expect((await h.request('/v1/files', { headers: reader })).status).toBe(200);
    expect((await uploadRaw(h, writer, new Uint8Array([1]))).status).toBe(201);
    await expectError(h.request('/v1/files', { headers: writer }), 403);
    await expectError(uploadRaw(h, {}, new Uint8Array([1])), 401);
  });
});

describe('upload size limit', () => {
  let h: Harness;
  beforeAll(async () => {
    const storageUrl = await freshStorageUrl(loadConfig(process.env), 'files-limit');
    h = await startApi({ maxUploadBytes: 1024, storageUrl });
  });
  afterAll(() => h.close());

  // A body without Content-Length: the limit can only be enforced while streaming.
  const chunked = (bytes: Uint8Array) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 256) controller.enqueue(bytes.subarray(i, i + 256));
        controller.close();
      },
    });

  it('answers 413 up front and while streaming, leaving nothing in storage or the database', async () => {
    const auth = await account(h);
    const over = randomBytes(2048);
    // Raw: refused on Content-Length before reading, then (no length) while streaming.
    await expectError(uploadRaw(h, auth, over), 413);
    const streamed: RequestInit & { duplex: 'half' } = {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/octet-stream', 'x-filename': 'big.bin' },
      body: chunked(over),
      duplex: 'half',
    };
    await expectError(h.request('/v1/files', streamed), 413);
    // Multipart: within the envelope allowance, so formidable stops it while streaming; far over it, up front.
    await expectError(uploadForm(h, auth, [['file', new Blob([over]), 'big.bin']]), 413);
    await expectError(uploadForm(h, auth, [['file', new Blob([randomBytes(200_000)]), 'huge.bin']]), 413);
    expect((await (await h.request('/v1/files', { headers: auth })).json()).files).toEqual([]);
    expect(await storedObjects(h.config)).toEqual([]);

    const exact = randomBytes(1024);
    const ok = await uploadRaw(h, auth, exact);
    expect(ok.status).toBe(201);
    expect((await ok.json()).sha256).toBe(sha256(exact));
    expect(await storedObjects(h.config)).toHaveLength(1);
    expect(h.logs.filter((line) => line.includes('unhandled error'))).toEqual([]);
  });
});
