import ExcelJS from 'exceljs';
import { addMember, bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { INJECTION_PAYLOADS } from '../helpers/sampleSources';

type Headers = Record<string, string>;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const CSV = 'name,city,score,active\nAda,London,42.5,true\nGrace,New York,37,false\nLinus,Helsinki,,true\n';

async function workbook(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const orders = wb.addWorksheet('Orders');
  orders.addRow(['id', 'item', 'qty']);
  orders.addRow([1, 'apple', 3]);
  orders.addRow([2, 'pear', 10]);
  const notes = wb.addWorksheet('Notes');
  notes.addRow(['note']);
  notes.addRow(['hello']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

// File data sources: CSV and XLSX uploads become sheets read like tables (docs/api/data-sources.md).
describe('file data sources', () => {
  let h: Harness;
  let manager: Headers;
  let other: Headers;
  let sourceId: string;
  let owner: Account;

  beforeAll(async () => {
    h = await startApi();
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    manager = bearer(await createKey(h, owner, ['data_sources:read', 'data_sources:manage']));
    const stranger = await signUp(h);
    other = bearer(await createKey(h, stranger, ['data_sources:read', 'data_sources:manage']));
    sourceId = (
      await ok(
        h.request('/v1/data-sources', { method: 'POST', headers: manager, json: { name: 'Sheets', type: 'file' } }),
        201,
      )
    ).id;
  });
  afterAll(() => h.close());

  const upload = (body: string | Buffer, filename: string, type: string, headers = manager, id = sourceId) =>
    h.request(`/v1/data-sources/${id}/files`, {
      method: 'POST',
      headers: { ...headers, 'content-type': type, 'x-filename': filename },
      body,
    });
  const read = (body: object) =>
    h.request(`/v1/data-sources/${sourceId}/read`, { method: 'POST', headers: manager, json: body });

  it('turns a CSV upload into a typed sheet', async () => {
    expect(await ok(upload(CSV, 'people.csv', 'text/csv'), 201)).toEqual({
      objects: [{ name: 'people', kind: 'sheet', rows: 3 }],
    });
    const described = await ok(h.request(`/v1/data-sources/${sourceId}/objects/people`, { headers: manager }), 200);
    expect(described.columns).toEqual([
      { name: 'name', type: 'text', nullable: false },
      { name: 'city', type: 'text', nullable: false },
      { name: 'score', type: 'number', nullable: true },
      { name: 'active', type: 'boolean', nullable: false },
    ]);
    const rows = await ok(
      read({
        object: 'people',
        columns: ['name', 'score'],
        where: [{ column: 'active', op: 'eq', value: true }],
        orderBy: [{ column: 'name', desc: true }],
      }),
      200,
    );
    expect(rows).toEqual({
      columns: ['name', 'score'],
      rows: [
        { name: 'Linus', score: null },
        { name: 'Ada', score: 42.5 },
      ],
      truncated: false,
    });
    const filtered = await ok(
      read({ object: 'people', columns: ['name'], where: [{ column: 'score', op: 'gt', value: 40 }] }),
      200,
    );
    expect(filtered.rows).toEqual([{ name: 'Ada' }]);
    const like = await ok(
      read({ object: 'people', columns: ['name'], where: [{ column: 'city', op: 'like', value: 'New%' }] }),
      200,
    );
    expect(like.rows).toEqual([{ name: 'Grace' }]);
    const limited = await ok(read({ object: 'people', limit: 2 }), 200);
    expect(limited.truncated).toBe(true);
    // uploading again replaces the sheet
    await ok(upload('name\nOnly\n', 'people.csv', 'text/csv'), 201);
    expect((await ok(read({ object: 'people' }), 200)).rows).toEqual([{ name: 'Only' }]);
  });

  it('turns each worksheet of an XLSX upload (multipart) into a sheet', async () => {
    const form = new FormData();
    form.append('file', new Blob([await workbook()], { type: XLSX }), 'shop.xlsx');
    const res = await h.request(`/v1/data-sources/${sourceId}/files`, { method: 'POST', headers: manager, body: form });
    expect(await ok(Promise.resolve(res), 201)).toEqual({
      objects: [
        { name: 'shop.Orders', kind: 'sheet', rows: 2 },
        { name: 'shop.Notes', kind: 'sheet', rows: 1 },
      ],
    });
    const { objects } = await ok(h.request(`/v1/data-sources/${sourceId}/objects`, { headers: manager }), 200);
    expect(objects).toEqual(expect.arrayContaining([{ name: 'shop.Orders', kind: 'sheet' }]));
    const rows = await ok(read({ object: 'shop.Orders', where: [{ column: 'qty', op: 'in', value: [10, 11] }] }), 200);
    expect(rows.rows).toEqual([{ id: 2, item: 'pear', qty: 10 }]);
  });

  it('refuses files over the upload limit with 413, and what is not CSV or XLSX with 400', async () => {
    const big = Buffer.alloc(30 * 1024 * 1024, 1);
    await error(upload(big, 'huge.xlsx', XLSX), 413, 'payload_too_large');
    await error(upload('hello', 'notes.txt', 'text/plain'), 400, 'validation_error');
    await error(upload('not a zip', 'broken.xlsx', XLSX), 400, 'validation_error');
    await error(upload('a,b\n"unclosed,2\n', 'bad.csv', 'text/csv'), 400, 'validation_error');
  });

  it('takes files only for file sources, in the caller workspace', async () => {
    const db = await ok(
      h.request('/v1/data-sources', {
        method: 'POST',
        headers: manager,
        json: {
          name: 'db',
          type: 'postgres',
          config: { host: '127.0.0.1', port: 5432, database: 'x', user: 'u', password: 'p' },
        },
      }),
      201,
    );
    await error(upload(CSV, 'people.csv', 'text/csv', manager, db.id), 400, 'validation_error');
    await error(upload(CSV, 'people.csv', 'text/csv', other), 404, 'not_found');
    const reader = bearer(await createKey(h, await signUp(h), ['data_sources:read']));
    await error(upload(CSV, 'people.csv', 'text/csv', reader), 403, 'forbidden');
  });

  it('answers a like pattern built to backtrack over 100 KB of cells promptly, concurrent reads too', async () => {
    const cells = Array.from({ length: 2_500 }, (_v, i) => (i === 7 ? 'a'.repeat(39) + 'b' : 'a'.repeat(40)));
    await ok(upload(`text\n${cells.join('\n')}\n`, 'hostile.csv', 'text/csv'), 201);
    const hostile = { object: 'hostile', where: [{ column: 'text', op: 'like', value: '%a'.repeat(8) + '%b' }] };
    // a backtracking matcher would spend hours on these cells (the matcher's growth is held in likePattern.test.ts)
    const answers = await Promise.all([1, 2, 3].map(() => ok(read(hostile), 200)));
    for (const answer of answers) expect(answer.rows).toEqual([{ text: 'a'.repeat(39) + 'b' }]);
  });

  it('treats injection payloads in sheet reads as unknown names or plain values', async () => {
    await ok(upload(CSV, 'people.csv', 'text/csv'), 201);
    for (const payload of INJECTION_PAYLOADS) {
      await error(read({ object: payload }), 400, 'validation_error');
      await error(read({ object: 'people', columns: [payload] }), 400, 'validation_error');
      const res = await ok(read({ object: 'people', where: [{ column: 'name', op: 'eq', value: payload }] }), 200);
      expect(res.rows).toEqual([]);
      await error(
        read({ object: 'people', where: [{ column: 'score', op: 'eq', value: payload }] }),
        400,
        'validation_error',
      );
    }
  });

  it('lets session members read and admins manage, by the role table', async () => {
    const member = await signUp(h);
    const admin = await signUp(h);
    await addMember(h, member.userId, owner.workspaceId, 'member');
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const session = (a: Account) => ({ cookie: a.cookie, 'X-Workspace-Id': owner.workspaceId });
    expect((await h.request('/v1/data-sources', { headers: session(member) })).status).toBe(200);
    expect((await h.request('/v1/saved-tables', { headers: session(member) })).status).toBe(200);
    await error(
      h.request('/v1/data-sources', { method: 'POST', headers: session(member), json: { name: 'm', type: 'file' } }),
      403,
      'forbidden',
    );
    await error(
      h.request(`/v1/data-sources/${sourceId}`, { method: 'DELETE', headers: session(member) }),
      403,
      'forbidden',
    );
    const made = await ok(
      h.request('/v1/data-sources', { method: 'POST', headers: session(admin), json: { name: 'a', type: 'file' } }),
      201,
    );
    expect((await h.request(`/v1/data-sources/${made.id}`, { method: 'DELETE', headers: session(admin) })).status).toBe(
      204,
    );
  });
});
