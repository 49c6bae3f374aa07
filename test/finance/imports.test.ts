import { randomUUID } from 'node:crypto';
import { bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { CSV_EU_OCTOBER, CSV_EU_OVERLAP, EU_MAPPING, OFX_SGML, OFX_XML, TSV_DEBIT_CREDIT } from './bankExports';
import { call, upload, type Headers } from './helpers';

// Imports of bank exports (docs/api/finance.md): OFX 1.x and 2.x, CSV dialects, overlap, bad input.
describe('finance imports', () => {
  let h: Harness;
  let owner: Account;
  let auth: Headers;
  beforeAll(async () => {
    h = await startApi();
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['finance:read', 'finance:write', 'files:write', 'files:read']));
  });
  afterAll(() => h.close());

  const fresh = async () => {
    const account = await signUp(h);
    await setPlan(h, account.workspaceId, 'scale');
    return bearer(await createKey(h, account, ['finance:read', 'finance:write', 'files:write']));
  };
  const importFile = (headers: Headers, body: unknown) => call(h, 'POST', '/v1/finance/imports', headers, body);
  const transactions = async (headers: Headers, query = '') =>
    (await ok(call(h, 'GET', `/v1/finance/transactions?limit=100${query}`, headers), 200)).transactions as any[];

  it('imports an OFX 1.x SGML statement, and the same statement again adds nothing', async () => {
    const a = await fresh();
    const fileId = await upload(h, a, OFX_SGML, 'statement.ofx');
    const first = await ok(importFile(a, { fileId, format: 'ofx' }), 201);
    expect(first).toMatchObject({
      status: 'completed',
      rows: 3,
      imported: 3,
      duplicates: 0,
      errors: [],
      account: '123456789',
    });
    const rows = await transactions(a);
    const coffee = rows.find((t) => t.description.startsWith('COFFEE & CO'));
    expect(coffee).toMatchObject({
      date: '2026-10-03',
      description: 'COFFEE & CO Card purchase',
      amount: '-42.17',
      amountMinor: -4217,
      currency: 'USD',
      counterparty: 'COFFEE & CO',
      importId: first.id,
      reconciled: false,
    });
    const again = await ok(importFile(a, { fileId, format: 'ofx' }), 201);
    expect(again).toMatchObject({ rows: 3, imported: 0, duplicates: 3 });
    expect(await transactions(a)).toHaveLength(3);
    expect(await ok(call(h, 'GET', `/v1/finance/imports/${first.id}`, a), 200)).toEqual(first);
    const list = await ok(call(h, 'GET', '/v1/finance/imports', a), 200);
    expect(list.imports.map((i: any) => i.id)).toEqual([again.id, first.id]);
  });

  it('imports an OFX 2.x XML credit-card statement; an unknown currency is an error of its line', async () => {
    const a = await fresh();
    const fileId = await upload(h, a, OFX_XML, 'card.qfx');
    const result = await ok(importFile(a, { fileId, format: 'ofx', account: 'Visa' }), 201);
    const line = OFX_XML.split('\n').findIndex((l) => l.includes('<FITID>CC-7782')) - 4;
    expect(result).toMatchObject({ rows: 3, imported: 2, duplicates: 0, account: 'Visa' });
    expect(result.errors).toEqual([{ line: line + 1, message: 'Unknown currency "XQQ"' }]);
    const rows = await transactions(a);
    expect(rows.map((t) => [t.description, t.amount, t.currency]).sort()).toEqual([
      ['Payment & thank you', '250.00', 'EUR'],
      ['Streamly subscription', '-19.99', 'EUR'],
    ]);
  });

  it('imports a CSV with a BOM, semicolons and decimal commas; an overlapping export adds only the new row', async () => {
    const a = await fresh();
    const first = await upload(h, a, CSV_EU_OCTOBER);
    const r1 = await ok(
      importFile(a, { fileId: first, format: 'csv', account: 'Girokonto', mapping: EU_MAPPING }),
      201,
    );
    expect(r1).toMatchObject({ rows: 3, imported: 3, duplicates: 0, errors: [] });
    const second = await upload(h, a, CSV_EU_OVERLAP);
    const r2 = await ok(
      importFile(a, { fileId: second, format: 'csv', account: 'Girokonto', mapping: EU_MAPPING }),
      201,
    );
    expect(r2).toMatchObject({ rows: 3, imported: 1, duplicates: 2, errors: [] });
    const rows = await transactions(a);
    expect(rows.map((t) => [t.date, t.description, t.amount, t.currency]).sort()).toEqual([
      ['2026-10-01', 'Miete Oktober; Wohnung 3', '-1250.00', 'EUR'],
      ['2026-10-02', 'Supermarkt Frisch', '-23.45', 'EUR'],
      ['2026-10-03', 'Gehalt ACME GmbH', '3100.10', 'EUR'],
      ['2026-10-05', 'Bäckerei Korn', '-4.80', 'EUR'],
    ]);
  });

  it('keeps two identical rows of one export, and finds both in the next export', async () => {
    const a = await fresh();
    const csv = 'date,description,amount\n2026-10-01,Coffee,-3.50\n2026-10-01,Coffee,-3.50\n';
    const mapping = { date: 'date', description: 'description', amount: 'amount' };
    const r1 = await ok(importFile(a, { fileId: await upload(h, a, csv), format: 'csv', mapping }), 201);
    expect(r1).toMatchObject({ imported: 2, duplicates: 0 });
    const r2 = await ok(importFile(a, { fileId: await upload(h, a, csv), format: 'csv', mapping }), 201);
    expect(r2).toMatchObject({ imported: 0, duplicates: 2 });
  });

  it('reads tab separators, debit/credit columns and quoted fields', async () => {
    const a = await fresh();
    const fileId = await upload(h, a, TSV_DEBIT_CREDIT, 'export.tsv');
    const mapping = { date: 'Date', description: 'Details', debit: 'Debit', credit: 'Credit' };
    expect(await ok(importFile(a, { fileId, format: 'csv', mapping }), 201)).toMatchObject({ rows: 2, imported: 2 });
    const rows = await transactions(a);
    expect(rows.map((t) => [t.description, t.amount, t.currency]).sort()).toEqual([
      ['Office "Supplies" and more second line', '-85.20', 'USD'],
      ['Refund from Vendor', '10.05', 'USD'],
    ]);
  });

  it('reports a malformed line with its number and imports the rest', async () => {
    const a = await fresh();
    const csv = [
      'date,description,amount,currency',
      '2026-10-01,Lunch,-12.00,USD',
      '2026-13-45,Broken date,-1.00,USD',
      '2026-10-02,Books,abc,USD',
      '2026-10-03,"Bad "quote" here",-2.00,USD',
      '2026-10-04,Taxi,-30.10,ZZZ',
      '2026-10-05,Train,-8.40,usd',
    ].join('\n');
    const mapping = { date: 'date', description: 'description', amount: 'amount', currency: 'currency' };
    const result = await ok(importFile(a, { fileId: await upload(h, a, csv), format: 'csv', mapping }), 201);
    expect(result).toMatchObject({ rows: 6, imported: 2, duplicates: 0 });
    expect(result.errors.map((e: any) => e.line)).toEqual([3, 4, 5, 6]);
    expect(result.errors[0].message).toMatch(/Invalid date/);
    expect(result.errors[1].message).toMatch(/Invalid amount/);
    expect(result.errors[3].message).toBe('Unknown currency "ZZZ"');
    expect((await transactions(a)).map((t) => t.description).sort()).toEqual(['Lunch', 'Train']);
  });

  it('imports nothing when the mapping does not fit the header', async () => {
    const a = await fresh();
    const fileId = await upload(h, a, CSV_EU_OCTOBER);
    const err = await error(
      importFile(a, { fileId, format: 'csv', mapping: { ...EU_MAPPING, amount: 'Amount' } }),
      400,
      'validation_error',
    );
    expect(err.details.issues).toEqual([{ path: 'mapping.amount', message: 'The header has no column "Amount"' }]);
    expect(await transactions(a)).toEqual([]);
    expect((await ok(call(h, 'GET', '/v1/finance/imports', a), 200)).imports).toEqual([]);
  });

  it('rejects bad bodies: no mapping for CSV, a file that is not OFX, an unknown or foreign file', async () => {
    const a = await fresh();
    const fileId = await upload(h, a, CSV_EU_OCTOBER);
    await error(importFile(a, { fileId, format: 'csv' }), 400, 'validation_error');
    await error(importFile(a, { fileId, format: 'ofx' }), 400, 'validation_error');
    await error(importFile(a, { fileId, format: 'xls' }), 400, 'validation_error');
    await error(importFile(a, { fileId: randomUUID(), format: 'ofx' }), 404, 'not_found');
    const foreign = await upload(h, auth, OFX_SGML, 'theirs.ofx');
    await error(importFile(a, { fileId: foreign, format: 'ofx' }), 404, 'not_found');
  });

  it('answers 413 for a 30 MB export, at upload and at import', async () => {
    const a = await fresh();
    const big = Buffer.alloc(30 * 1000 * 1000, 'a');
    const res = await h.request('/v1/files', {
      method: 'POST',
      headers: { ...a, 'content-type': 'text/csv', 'x-filename': 'huge.csv' },
      body: big,
    });
    expect(res.status).toBe(413);
    // an export stored under a larger upload limit is still refused by the import limit
    const roomy = await startApi({ maxUploadBytes: 40 * 1000 * 1000 }, { orm: h.orm });
    try {
      const line = '2026-10-01,Padding row of a very large export,-1.00\n';
      const body = Buffer.from('date,description,amount\n' + line.repeat(Math.ceil(30_000_000 / line.length)));
      const fileId = await upload(roomy, a, body, 'huge.csv');
      const mapping = { date: 'date', description: 'description', amount: 'amount' };
      await error(
        call(roomy, 'POST', '/v1/finance/imports', a, { fileId, format: 'csv', mapping }),
        413,
        'payload_too_large',
      );
    } finally {
      await roomy.close();
    }
    expect(await transactions(a)).toEqual([]);
  });

  it('needs finance:write to import and finance:read to list; ids of other workspaces are 404', async () => {
    const reader = bearer(await createKey(h, owner, ['finance:read', 'files:write']));
    const nobody = bearer(await createKey(h, owner, ['files:write']));
    const fileId = await upload(h, auth, OFX_SGML, 'mine.ofx');
    await error(importFile(reader, { fileId, format: 'ofx' }), 403, 'forbidden');
    await error(call(h, 'GET', '/v1/finance/imports', nobody), 403, 'forbidden');
    const mine = await ok(importFile(auth, { fileId, format: 'ofx' }), 201);
    await ok(call(h, 'GET', `/v1/finance/imports/${mine.id}`, reader), 200);
    const other = await fresh();
    await error(call(h, 'GET', `/v1/finance/imports/${mine.id}`, other), 404, 'not_found');
    await error(call(h, 'GET', `/v1/finance/imports/${randomUUID()}`, auth), 404, 'not_found');
  });
});
