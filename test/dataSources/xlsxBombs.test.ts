import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { readDocuments } from '../../domain/finance/documents';
import { createStorage } from '../../platform/storage/storage';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { xlsxBomb } from '../helpers/zipBomb';
import { upload as uploadToLibrary } from '../finance/helpers';

type Headers = Record<string, string>;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Bytes in all files below `dir`. */
function du(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((sum, e) => {
    const p = path.join(dir, e.name);
    return sum + (e.isDirectory() ? du(p) : e.isFile() ? statSync(p).size : 0);
  }, 0);
}

async function receipts(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Receipts').addRows([
    ['date', 'vendor', 'amount'],
    ['2026-10-19', 'ACME Corp', '3,000.00'],
  ]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

// XLSX zip bombs, about 1 MiB inflating to 1 GiB, against every reader of caller workbooks (docs/api/limits.md).
describe('XLSX zip bombs', () => {
  let h: Harness;
  let headers: Headers;
  let workspaceId: string;
  let sourceId: string;
  let scratch: string;
  const savedTmp = process.env.TMPDIR;

  beforeAll(async () => {
    // a temporary directory of this test's own, so what a reader spills to disk can be measured
    scratch = mkdtempSync(path.join(tmpdir(), 'svc-xlsx-bombs-'));
    process.env.TMPDIR = scratch;
    h = await startApi();
    const owner = await signUp(h);
    workspaceId = owner.workspaceId;
    await setPlan(h, owner.workspaceId, 'scale');
    headers = bearer(await createKey(h, owner, ['data_sources:read', 'data_sources:manage', 'files:write']));
    sourceId = (
      await ok(h.request('/v1/data-sources', { method: 'POST', headers, json: { name: 'Sheets', type: 'file' } }), 201)
    ).id;
  });
  afterAll(async () => {
    await h?.close();
    process.env.TMPDIR = savedTmp;
    if (savedTmp === undefined) delete process.env.TMPDIR;
    rmSync(scratch, { recursive: true, force: true });
  });

  const upload = (body: Buffer) =>
    h.request(`/v1/data-sources/${sourceId}/files`, {
      method: 'POST',
      headers: { ...headers, 'content-type': XLSX, 'x-filename': 'bomb.xlsx' },
      body,
    });

  it.each(['declared', 'lying', 'entries'] as const)(
    'refuses a %s bomb uploaded to a file source with 400 before inflating it, spilling nothing',
    async (kind) => {
      const bomb = xlsxBomb(kind);
      const rss = process.memoryUsage().rss;
      const disk = du(scratch);
      // the zip guard refuses it (its cost against an honest archive is held in test/platform/zipGuard.test.ts)
      const e = await error(upload(bomb), 400, 'validation_error');
      expect(e.details.issues).toEqual([{ path: 'file', message: expect.any(String) }]);
      expect(process.memoryUsage().rss - rss).toBeLessThan(100 * 1024 * 1024);
      expect(du(scratch)).toBe(disk);
      const objects = await ok(h.request(`/v1/data-sources/${sourceId}/objects`, { headers }), 200);
      expect(objects.objects).toEqual([]);
    },
  );

  it('still turns a small real workbook into sheets', async () => {
    const res = await h.request(`/v1/data-sources/${sourceId}/files`, {
      method: 'POST',
      headers: { ...headers, 'content-type': XLSX, 'x-filename': 'receipts.xlsx' },
      body: await receipts(),
    });
    expect(await ok(Promise.resolve(res), 201)).toEqual({
      objects: [{ name: 'receipts.Receipts', kind: 'sheet', rows: 1 }],
    });
  });

  it('reads a bomb in the file library as an unreadable finance document, and a real workbook as rows', async () => {
    const bomb = await uploadToLibrary(h, headers, xlsxBomb('lying'), 'receipts-bomb.xlsx');
    const real = await uploadToLibrary(h, headers, await receipts(), 'receipts.xlsx');
    const storage = createStorage(h.config.storageUrl, h.config.s3);
    const rss = process.memoryUsage().rss;
    const { documents, unreadable } = await readDocuments(
      h.orm.em.fork(),
      storage,
      workspaceId,
      [bomb, real],
      h.config.zipLimits,
    );
    // inflating the bomb would take gigabytes: the memory bound tells refusal from inflation
    expect(process.memoryUsage().rss - rss).toBeLessThan(100 * 1024 * 1024);
    expect(unreadable).toEqual([{ fileId: bomb, message: expect.stringMatching(/sheet1\.xml inflates past/) }]);
    expect(documents).toEqual([
      expect.objectContaining({ fileId: real, where: 'row 2', amounts: [3_000_000_000], dates: ['2026-10-19'] }),
    ]);
  });
});
