import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { startRunStack } from '../helpers/worker';
import { call, newAgent, newApp, type Headers } from './helpers';

// Files through a published app's public form (docs/api/apps.md#public-pages): multipart submissions whose
// files join the workspace's library and the run's input.fileIds, and refusals that leave nothing behind.

/** Every file under a storage directory, temporary ones included. */
async function storedFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

type Part = [string, string | Blob, string?];

function multipart(parts: Part[]): FormData {
  const form = new FormData();
  for (const [name, value, filename] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, filename);
  }
  return form;
}

const fileForm = {
  fields: [
    { name: 'topic', label: 'Topic', type: 'text', required: true },
    { name: 'report', label: 'Report', type: 'file', required: true },
    { name: 'photos', label: 'Photos', type: 'file', required: false, multiple: true },
  ],
};

describe('public app uploads', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Headers;
  let agentId: string;
  let dir: string;
  let slug: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'svc-app-uploads-'));
    const stack = await startRunStack({
      appRatePerMin: 10_000,
      maxUploadBytes: 1024,
      appUploadTotalBytes: 2048,
      storageUrl: pathToFileURL(dir).href,
    });
    h = stack.h;
    stop = stack.stop;
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['apps:manage', 'agents:write', 'runs:read', 'files:read']));
    agentId = await newAgent(h, auth);
    const app = await newApp(h, auth, agentId, { form: fileForm });
    await ok(call(h, 'POST', `/v1/apps/${app.id}/publish`, auth), 200);
    slug = app.slug;
  }, 120_000);
  afterAll(() => stop());

  const submit = (parts: Part[], accept = 'application/json') =>
    h.request(`/apps/${slug}/runs`, { method: 'POST', headers: { accept }, body: multipart(parts) });
  const libraryCount = async () => (await ok(call(h, 'GET', '/v1/files?limit=100', auth), 200)).files.length;

  it('takes named file parts: the run input names them in fileIds and their downloads are the exact bytes', async () => {
    const report = randomBytes(900);
    const photo1 = randomBytes(500);
    const photo2 = new TextEncoder().encode('second photo');
    const started = await ok(
      submit([
        ['topic', 'tides'],
        ['report', new Blob([report], { type: 'application/pdf' }), 'report.pdf'],
        ['photos', new Blob([photo1], { type: 'image/png' }), 'one.png'],
        ['photos', new Blob([photo2], { type: 'text/plain' }), 'two.txt'],
      ]),
      201,
    );
    const run = await ok(call(h, 'GET', `/v1/runs/${started.runId}`, auth), 200);
    expect(run.metadata).toEqual({ appId: expect.any(String) });
    const { fileIds } = run.input;
    expect(fileIds).toHaveLength(3);
    expect(run.input).toEqual({ topic: 'tides', report: fileIds[0], photos: [fileIds[1], fileIds[2]], fileIds });
    const expected = [
      { bytes: report, filename: 'report.pdf', mime: 'application/pdf' },
      { bytes: photo1, filename: 'one.png', mime: 'image/png' },
      { bytes: photo2, filename: 'two.txt', mime: 'text/plain' },
    ];
    for (const [i, id] of (fileIds as string[]).entries()) {
      const meta = await ok(call(h, 'GET', `/v1/files/${id}`, auth), 200);
      expect(meta).toMatchObject({ filename: expected[i].filename, mime: expected[i].mime, folderId: null });
      const content = await h.request(`/v1/files/${id}/content`, { headers: auth });
      expect(content.status).toBe(200);
      expect(Buffer.from(await content.arrayBuffer()).equals(Buffer.from(expected[i].bytes))).toBe(true);
    }
    // an optional file field left empty (a browser's unpicked input: an empty, nameless part) is not sent
    const second = await ok(
      submit([
        ['topic', 'moons'],
        ['report', new Blob(['r'], { type: 'text/plain' }), 'r.txt'],
        ['photos', new Blob([], { type: 'application/octet-stream' }), ''],
      ]),
      201,
    );
    const input = (await ok(call(h, 'GET', `/v1/runs/${second.runId}`, auth), 200)).input;
    expect(Object.keys(input).sort()).toEqual(['fileIds', 'report', 'topic']);
  });

  it('refuses a file over the limit with 413 and keeps nothing', async () => {
    const beforeStored = await storedFiles(dir);
    const beforeLibrary = await libraryCount();
    await error(
      submit([
        ['topic', 'big'],
        ['photos', new Blob([randomBytes(300)]), 'ok.bin'],
        ['report', new Blob([randomBytes(1500)]), 'big.bin'],
      ]),
      413,
      'payload_too_large',
    );
    // all files together over SVC_APP_UPLOAD_TOTAL_BYTES
    await error(
      submit([
        ['topic', 'many'],
        ['report', new Blob([randomBytes(1000)]), 'a.bin'],
        ['photos', new Blob([randomBytes(1000)]), 'b.bin'],
        ['photos', new Blob([randomBytes(1000)]), 'c.bin'],
      ]),
      413,
      'payload_too_large',
    );
    expect(await storedFiles(dir)).toEqual(beforeStored);
    expect(await libraryCount()).toBe(beforeLibrary);
  });

  it('refuses a part of no file field, a missing required file and other bad submissions with 400 at the path', async () => {
    const beforeStored = await storedFiles(dir);
    const beforeLibrary = await libraryCount();
    const unknown = await error(
      submit([
        ['topic', 'x'],
        ['report', new Blob(['fine']), 'fine.txt'],
        ['resume', new Blob(['who']), 'cv.txt'],
      ]),
      400,
      'validation_error',
    );
    expect(unknown.details.issues).toEqual([{ path: 'resume', message: expect.any(String) }]);

    const missing = await error(submit([['topic', 'x']]), 400, 'validation_error');
    expect(missing.details.issues).toEqual([{ path: 'report', message: expect.stringMatching(/^Required/) }]);

    // one file only in a field without `multiple`; a text value for a file field; JSON cannot carry files
    const two = await error(
      submit([
        ['topic', 'x'],
        ['report', new Blob(['a']), 'a.txt'],
        ['report', new Blob(['b']), 'b.txt'],
      ]),
      400,
      'validation_error',
    );
    expect(two.details.issues).toEqual([{ path: 'report', message: 'One file only' }]);
    const json = await error(
      call(h, 'POST', `/apps/${slug}/runs`, {}, { topic: 'x', report: 'x' }),
      400,
      'validation_error',
    );
    expect(json.details.issues).toEqual([{ path: 'report', message: expect.stringContaining('multipart/form-data') }]);
    // a valid file next to a failing text field is not kept either
    await error(submit([['report', new Blob(['kept?']), 'k.txt']]), 400, 'validation_error');
    expect(await storedFiles(dir)).toEqual(beforeStored);
    expect(await libraryCount()).toBe(beforeLibrary);
  });

  it('answers a browser multipart form with the status page or its form back, and JSON forms stay as before', async () => {
    const redirect = await h.request(`/apps/${slug}/runs`, {
      method: 'POST',
      headers: { accept: 'text/html' },
      body: multipart([
        ['topic', 'browser'],
        ['report', new Blob(['b']), 'b.txt'],
      ]),
      redirect: 'manual',
    });
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get('location')).toMatch(/\/runs\/[0-9a-f-]{36}\?token=/);
    const refused = await submit([['topic', 'browser']], 'text/html');
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('id="field-report-error"');

    const page = await (await h.request(`/apps/${slug}`)).text();
    expect(page).toContain('enctype="multipart/form-data"');
    expect(page).toContain(
      '<input type="file" id="field-photos" name="photos" aria-describedby="field-photos-hint" multiple>',
    );

    const plain = await newApp(h, auth, agentId);
    await ok(call(h, 'POST', `/v1/apps/${plain.id}/publish`, auth), 200);
    expect(await (await h.request(`/apps/${plain.slug}`)).text()).not.toContain('enctype');
    await ok(call(h, 'POST', `/apps/${plain.slug}/runs`, {}, { topic: 'json' }), 201);
    const bad = await ok(
      call(h, 'POST', '/v1/apps', auth, {
        name: 'x',
        slug: `bad-${randomBytes(4).toString('hex')}`,
        agentId,
        form: { fields: [...fileForm.fields, { name: 'fileIds', label: 'Ids', type: 'text', required: false }] },
      }),
      400,
    );
    expect(bad.error.details.issues[0].path).toBe('form.fields.3.name');
  });
});
