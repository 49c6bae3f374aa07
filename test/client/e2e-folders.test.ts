/**
 * `@svc/client` against the REAL service: the file library's folders, and files renamed and moved between
 * them (docs/api/files.md), with the errors a caller branches on.
 */
import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  NotFoundError,
  PermissionError,
  Svc,
  ValidationError,
  type Folder,
} from '../../client/src/index.js';
import { FOLDER_FIELDS } from '../../client/src/schema.js';
import { createKey } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { clientWorkspace, rejectionOf } from './e2e-helpers';

let h: Harness;
beforeAll(async () => {
  h = await startApi();
}, 60_000);
afterAll(() => h?.close());

const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe('client e2e: folders and moving files', () => {
  it('files a report into nested folders, renames and moves both, and deletes the folders once empty', async () => {
    const { svc } = await clientWorkspace(h); // a workspace of its own: its lists hold exactly these
    const reports = await svc.folders.create({ name: 'Reports' });
    expect(reports).toEqual({
      id: expect.any(String),
      name: 'Reports',
      parentId: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(Object.keys(reports).sort()).toEqual(Object.keys(FOLDER_FIELDS).sort());
    const q4 = await svc.folders.create({ name: 'Q4', parentId: reports.id });
    expect(q4).toMatchObject({ name: 'Q4', parentId: reports.id });

    expect(ids(await svc.folders.list({ parentId: 'root' }).toArray())).toEqual([reports.id]);
    expect(ids(await svc.folders.list({ parentId: reports.id }).toArray())).toEqual([q4.id]);
    expect(ids(await svc.folders.list().toArray()).sort()).toEqual([reports.id, q4.id].sort());

    const file = await svc.files.upload('total: 42\n', { filename: 'draft.txt', mime: 'text/plain' });
    expect(file.folderId).toBeNull();
    const moved = await svc.files.update(file.id, { folderId: q4.id });
    expect(moved).toEqual({ ...file, folderId: q4.id });
    expect(await svc.files.get(file.id)).toEqual(moved);
    expect(ids(await svc.files.list({ folderId: q4.id }).toArray())).toEqual([file.id]);
    expect(await svc.files.list({ folderId: 'root' }).toArray()).toEqual([]);

    // a rename keeps the folder and the bytes
    const renamed = await svc.files.update(file.id, { filename: 'Q4 report.txt' });
    expect(renamed).toEqual({ ...moved, filename: 'Q4 report.txt' });
    expect(Buffer.from(await svc.files.content(file.id)).toString('utf8')).toBe('total: 42\n');

    const notEmpty = await rejectionOf(svc.folders.delete(q4.id));
    expect(notEmpty).toBeInstanceOf(ConflictError);
    expect(notEmpty).toMatchObject({ status: 409, code: 'conflict' });

    const archive = await svc.folders.update(q4.id, { name: 'Archive', parentId: null });
    expect(archive).toMatchObject({ id: q4.id, name: 'Archive', parentId: null, createdAt: q4.createdAt });
    expect(ids(await svc.folders.list({ parentId: 'root' }).toArray()).sort()).toEqual([reports.id, q4.id].sort());
    expect(await svc.folders.list({ parentId: reports.id }).toArray()).toEqual([]);
    // the file went along with its folder
    expect((await svc.files.get(file.id)).folderId).toBe(q4.id);

    expect((await svc.files.update(file.id, { folderId: null })).folderId).toBeNull();
    await svc.folders.delete(q4.id);
    await svc.folders.delete(reports.id);
    expect(await svc.folders.list().toArray()).toEqual([]);
    expect(await rejectionOf(svc.folders.update(q4.id, { name: 'Gone' }))).toBeInstanceOf(NotFoundError);
    expect(ids(await svc.files.list({ folderId: 'root' }).toArray())).toEqual([file.id]);
  });

  it('pages folders newest first across real pages', async () => {
    const { svc } = await clientWorkspace(h);
    const made: Folder[] = [];
    for (const name of ['a', 'b', 'c', 'd', 'e']) made.push(await svc.folders.create({ name }));
    const pages: string[][] = [];
    for await (const page of svc.folders.list({ limit: 2 }).pages()) pages.push(page.folders.map((f) => f.name));
    expect(pages).toEqual([['e', 'd'], ['c', 'b'], ['a']]);
  });

  it('refuses a cycle, a bad name, an unknown folder or file, and another workspace, changing nothing', async () => {
    const { svc } = await clientWorkspace(h);
    const parent = await svc.folders.create({ name: 'Parent' });
    const child = await svc.folders.create({ name: 'Child', parentId: parent.id });
    const file = await svc.files.upload('x', { filename: 'x.txt', mime: 'text/plain' });

    const expectInvalid = async (promise: Promise<unknown>, path: string) => {
      const err = await rejectionOf(promise);
      expect(err).toBeInstanceOf(ValidationError);
      expect(err).toMatchObject({ status: 400, code: 'validation_error' });
      expect(err.details.issues).toEqual([expect.objectContaining({ path })]);
    };
    await expectInvalid(svc.folders.update(parent.id, { parentId: child.id }), 'parentId');
    await expectInvalid(svc.folders.update(parent.id, { parentId: parent.id }), 'parentId');
    await expectInvalid(svc.folders.create({ name: 'a/b' }), 'name');
    await expectInvalid(svc.folders.create({ name: 'Orphan', parentId: randomUUID() }), 'parentId');
    await expectInvalid(svc.files.update(file.id, { filename: '' }), 'filename');
    await expectInvalid(svc.files.update(file.id, { folderId: randomUUID() }), 'folderId');
    expect(await svc.files.get(file.id)).toEqual(file);
    expect(await svc.folders.list({ parentId: parent.id }).toArray()).toEqual([child]);

    expect(await rejectionOf(svc.files.update(randomUUID(), { filename: 'y.txt' }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(svc.folders.delete(randomUUID()))).toBeInstanceOf(NotFoundError);

    // another workspace sees none of it, and cannot file into it
    const { svc: other } = await clientWorkspace(h);
    expect(await rejectionOf(other.folders.update(parent.id, { name: 'Mine' }))).toBeInstanceOf(NotFoundError);
    expect(await rejectionOf(other.folders.delete(child.id))).toBeInstanceOf(NotFoundError);
    await expectInvalid(other.folders.create({ name: 'In theirs', parentId: parent.id }), 'parentId');
    expect(await svc.folders.list({ parentId: 'root' }).toArray()).toEqual([parent]);
  });

  it('reads folders with files:read; changing them needs files:write', async () => {
    const { account, svc } = await clientWorkspace(h);
    const folder = await svc.folders.create({ name: 'Shared' });
    const reader = new Svc({ apiKey: await createKey(h, account, ['files:read']), baseUrl: h.url });
    expect(await reader.folders.list().toArray()).toEqual([folder]);
    for (const denied of [
      () => reader.folders.create({ name: 'No' }),
      () => reader.folders.update(folder.id, { name: 'No' }),
      () => reader.folders.delete(folder.id),
    ]) {
      const err = await rejectionOf(denied());
      expect(err).toBeInstanceOf(PermissionError);
      expect(err).toMatchObject({ status: 403, code: 'forbidden' });
    }
    expect(await svc.folders.list().toArray()).toEqual([folder]);
  });

  it('creates a folder once per Idempotency-Key; the key with another body is a ConflictError', async () => {
    const { svc } = await clientWorkspace(h);
    const idempotencyKey = randomUUID();
    const first = await svc.folders.create({ name: 'Once' }, { idempotencyKey });
    expect(await svc.folders.create({ name: 'Once' }, { idempotencyKey })).toEqual(first);
    const reused = await rejectionOf(svc.folders.create({ name: 'Twice' }, { idempotencyKey }));
    expect(reused).toBeInstanceOf(ConflictError);
    expect(reused).toMatchObject({ status: 409, code: 'conflict' });
    expect(await svc.folders.list().toArray()).toEqual([first]);
  });
});
