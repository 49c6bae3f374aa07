import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { addMember, bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { call, upload, type Headers } from './helpers';

const MAPPING = { date: 'date', description: 'description', amount: 'amount', currency: 'currency' };
const CSV = [
  'date,description,amount,currency',
  '2026-09-28,ACME payroll September,3000.00,USD',
  '2026-10-01,Oak Street rent,-1200.00,USD',
  '2026-10-02,Fresh Market groceries,-54.31,USD',
  '2026-10-03,Corner cafe,-4.50,USD',
  '2026-10-15,Cloud Hosting Inc invoice 1042,-99.99,USD',
  '2026-10-20,Berlin hotel,-300.00,EUR',
  '2026-10-28,ACME payroll October,3000.00,USD',
].join('\n');

// Transactions, categories, rules, the summary and the export (docs/api/finance.md).
describe('finance ledger', () => {
  let h: Harness;
  let a: Headers;
  let workspaceId: string;
  let categories: Record<string, string>;
  beforeAll(async () => {
    h = await startApi();
    const owner = await signUp(h);
    workspaceId = owner.workspaceId;
    await setPlan(h, owner.workspaceId, 'scale');
    a = bearer(await createKey(h, owner, ['finance:read', 'finance:write', 'files:write']));
    const page = await ok(call(h, 'GET', '/v1/finance/categories?limit=100', a), 200);
    categories = Object.fromEntries(page.categories.map((c: any) => [c.name, c.id]));
    const fileId = await upload(h, a, CSV);
    await ok(call(h, 'POST', '/v1/finance/imports', a, { fileId, format: 'csv', mapping: MAPPING }), 201);
  });
  afterAll(() => h.close());

  const list = async (query = '') =>
    (await ok(call(h, 'GET', `/v1/finance/transactions?limit=100${query}`, a), 200)).transactions as any[];
  const byDescription = async (text: string) => (await list()).find((t) => t.description.includes(text));

  it('has a default chart, adds categories, and refuses a second of one name', async () => {
    expect(categories).toMatchObject({
      Salary: expect.any(String),
      Rent: expect.any(String),
      Groceries: expect.any(String),
    });
    const created = await ok(call(h, 'POST', '/v1/finance/categories', a, { name: 'Hosting', kind: 'expense' }), 201);
    expect(created).toMatchObject({ name: 'Hosting', kind: 'expense', isDefault: false });
    await error(call(h, 'POST', '/v1/finance/categories', a, { name: 'Hosting', kind: 'expense' }), 409, 'conflict');
    await error(call(h, 'POST', '/v1/finance/categories', a, { name: 'X', kind: 'asset' }), 400, 'validation_error');
    categories.Hosting = created.id;
  });

  it('filters transactions by dates, text and category; edits category, note and counterparty', async () => {
    expect(await list()).toHaveLength(7);
    expect((await list('&from=2026-10-01&to=2026-10-03')).map((t) => t.description).sort()).toEqual([
      'Corner cafe',
      'Fresh Market groceries',
      'Oak Street rent',
    ]);
    expect((await list('&q=acme%20PAYROLL')).map((t) => t.amount)).toEqual(['3000.00', '3000.00']);
    expect(await list('&q=100%25')).toEqual([]);
    const cafe = await byDescription('Corner cafe');
    const edited = await ok(
      call(h, 'PATCH', `/v1/finance/transactions/${cafe.id}`, a, {
        categoryId: categories.Dining,
        note: 'team coffee',
        counterparty: 'Corner Cafe LLC',
      }),
      200,
    );
    expect(edited).toMatchObject({
      categoryId: categories.Dining,
      note: 'team coffee',
      counterparty: 'Corner Cafe LLC',
    });
    expect((await list(`&categoryId=${categories.Dining}`)).map((t) => t.id)).toEqual([cafe.id]);
    expect((await list('&q=team%20coffee')).map((t) => t.id)).toEqual([cafe.id]);
    await error(
      call(h, 'PATCH', `/v1/finance/transactions/${cafe.id}`, a, { categoryId: randomUUID() }),
      400,
      'validation_error',
    );
    await error(call(h, 'PATCH', `/v1/finance/transactions/${cafe.id}`, a, {}), 400, 'validation_error');
    await error(call(h, 'PATCH', `/v1/finance/transactions/${randomUUID()}`, a, { note: 'x' }), 404, 'not_found');
    await error(call(h, 'GET', '/v1/finance/transactions?from=2026-02-30', a), 400, 'validation_error');
  });

  it('applies rules by priority on demand and on import; a manual category stays', async () => {
    const salary = await ok(
      call(h, 'POST', '/v1/finance/rules', a, {
        match: { descriptionContains: 'acme payroll', amountMin: 0 },
        categoryId: categories.Salary,
        priority: 10,
      }),
      201,
    );
    expect(salary.match).toEqual({ descriptionContains: 'acme payroll', amountMin: 0 });
    await ok(
      call(h, 'POST', '/v1/finance/rules', a, {
        match: { descriptionRegex: '^[A-Za-z ]+ (rent|hotel)$' },
        categoryId: categories.Rent,
        priority: 1,
      }),
      201,
    );
    await ok(
      call(h, 'POST', '/v1/finance/rules', a, {
        match: { descriptionRegex: 'hotel', amountMax: -100.5 },
        categoryId: categories.Travel,
        priority: 5,
      }),
      201,
    );
    // the cafe was categorised by a person: a rule for it changes nothing
    await ok(
      call(h, 'POST', '/v1/finance/rules', a, {
        match: { descriptionContains: 'cafe' },
        categoryId: categories.Groceries,
        priority: 0,
      }),
      201,
    );
    const applied = await ok(call(h, 'POST', '/v1/finance/rules/apply', a, {}), 200);
    expect(applied).toEqual({ examined: 6, updated: 4 });
    expect((await byDescription('payroll September')).categoryId).toBe(categories.Salary);
    expect((await byDescription('Oak Street rent')).categoryId).toBe(categories.Rent);
    expect((await byDescription('Berlin hotel')).categoryId).toBe(categories.Travel);
    expect((await byDescription('Corner cafe')).categoryId).toBe(categories.Dining);
    expect((await byDescription('Fresh Market')).categoryId).toBeNull();
    // a new import is categorised as it arrives
    const fileId = await upload(h, a, 'date,description,amount\n2026-11-28,ACME payroll November,3000.00\n');
    await ok(call(h, 'POST', '/v1/finance/imports', a, { fileId, format: 'csv', mapping: MAPPING }), 400);
    const imported = await ok(
      call(h, 'POST', '/v1/finance/imports', a, {
        fileId,
        format: 'csv',
        mapping: { date: 'date', description: 'description', amount: 'amount' },
      }),
      201,
    );
    expect(imported.imported).toBe(1);
    expect((await byDescription('payroll November')).categoryId).toBe(categories.Salary);
    const rules = await ok(call(h, 'GET', '/v1/finance/rules', a), 200);
    expect(rules.rules).toHaveLength(4);
    expect((await call(h, 'DELETE', `/v1/finance/rules/${salary.id}`, a)).status).toBe(204);
    await error(call(h, 'DELETE', `/v1/finance/rules/${salary.id}`, a), 404, 'not_found');
  });

  it('runs a catastrophic regular expression in linear time, and refuses what needs backtracking', async () => {
    const evil = await ok(
      call(h, 'POST', '/v1/finance/rules', a, {
        match: { descriptionRegex: '(a+)+$' },
        categoryId: categories['Bank fees'],
        priority: 0,
      }),
      201,
    );
    // 999 `a` and a `!`: a backtracking engine tries 2^999 ways before it gives up
    const fileId = await upload(h, a, `date,description,amount\n2026-10-30,${'a'.repeat(999)}!,-1.00\n`);
    await ok(
      call(h, 'POST', '/v1/finance/imports', a, {
        fileId,
        format: 'csv',
        mapping: { date: 'date', description: 'description', amount: 'amount' },
      }),
      201,
    );
    await ok(call(h, 'POST', '/v1/finance/rules/apply', a, { from: '2026-10-30' }), 200);
    expect((await byDescription('aaaa!')).categoryId).toBeNull();
    expect((await call(h, 'DELETE', `/v1/finance/rules/${evil.id}`, a)).status).toBe(204);
    const refused = await error(
      call(h, 'POST', '/v1/finance/rules', a, {
        match: { descriptionRegex: '(a)\\1' },
        categoryId: categories['Bank fees'],
        priority: 0,
      }),
      400,
      'validation_error',
    );
    expect(refused.details.issues[0].path).toBe('match.descriptionRegex');
    await error(
      call(h, 'POST', '/v1/finance/rules', a, { match: {}, categoryId: categories['Bank fees'], priority: 0 }),
      400,
      'validation_error',
    );
    await error(
      call(h, 'POST', '/v1/finance/rules', a, {
        match: { amountMin: 5, amountMax: 1 },
        categoryId: categories['Bank fees'],
      }),
      400,
      'validation_error',
    );
    await error(
      call(h, 'POST', '/v1/finance/rules', a, { match: { descriptionContains: 'x' }, categoryId: randomUUID() }),
      400,
      'validation_error',
    );
  });

  it('sums exactly by category and by month, per currency', async () => {
    const byMonth = await ok(call(h, 'GET', '/v1/finance/summary?groupBy=month&from=2026-09-01&to=2026-10-31', a), 200);
    expect(byMonth.groups).toEqual([
      { key: '2026-09', currency: 'USD', in: '3000.00', out: '0.00', net: '3000.00', count: 1 },
      { key: '2026-10', currency: 'EUR', in: '0.00', out: '300.00', net: '-300.00', count: 1 },
      { key: '2026-10', currency: 'USD', in: '3000.00', out: '1359.80', net: '1640.20', count: 6 },
    ]);
    expect(byMonth.totals).toEqual([
      { currency: 'EUR', in: '0.00', out: '300.00', net: '-300.00', count: 1 },
      { currency: 'USD', in: '6000.00', out: '1359.80', net: '4640.20', count: 7 },
    ]);
    const byCategory = await ok(call(h, 'GET', '/v1/finance/summary?to=2026-10-31', a), 200);
    expect(byCategory.groupBy).toBe('category');
    expect(byCategory.groups).toContainEqual({
      key: categories.Salary,
      currency: 'USD',
      in: '6000.00',
      out: '0.00',
      net: '6000.00',
      count: 2,
    });
    await error(call(h, 'GET', '/v1/finance/summary?groupBy=week', a), 400, 'validation_error');
  });

  // CSV amounts are the API's exact decimal text (docs/api/finance.md#money), with the currency's minor digits
  it('streams the export as CSV and as XLSX', async () => {
    const csv = await call(h, 'GET', '/v1/finance/export?format=csv&from=2026-10-01&to=2026-10-03', a);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect((await csv.text()).split('\r\n')).toEqual([
      'id,date,description,amount,currency,account,category,counterparty,note,reconciled',
      expect.stringMatching(/^[0-9a-f-]{36},2026-10-01,Oak Street rent,-1200\.00,USD,default,Rent,,,false$/),
      expect.stringMatching(/^[0-9a-f-]{36},2026-10-02,Fresh Market groceries,-54\.31,USD,default,,,,false$/),
      expect.stringMatching(
        /^[0-9a-f-]{36},2026-10-03,Corner cafe,-4\.50,USD,default,Dining,Corner Cafe LLC,team coffee,false$/,
      ),
      '',
    ]);
    const xlsx = await call(h, 'GET', '/v1/finance/export?format=xlsx', a);
    expect(xlsx.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as never);
    const sheet = workbook.getWorksheet('Transactions')!;
    expect(sheet.rowCount).toBe(1 + (await list()).length);
    expect(sheet.getRow(2).getCell(3).value).toBe('ACME payroll September');
    expect(sheet.getRow(2).getCell(4).value).toBe(3000);
  });

  it('writes text a spreadsheet would run as a formula as text in the CSV export; amounts are their exact text, never guarded', async () => {
    // a workspace of its own, so the other tests' counts do not move
    const owner = await signUp(h);
    const b = bearer(await createKey(h, owner, ['finance:read', 'finance:write', 'files:write']));
    const hostile = [
      'date,description,amount,counterparty',
      '2026-10-05,"=HYPERLINK(""http://evil.example/"",""refund"")",-10.00,@SUM(A1)',
      '2026-10-06,+1 555 0100 phone,-20.00,"-2+3"',
      '2026-10-07,Plain shop,30.00,Plain Shop',
    ].join('\n');
    const mapping = { date: 'date', description: 'description', amount: 'amount', counterparty: 'counterparty' };
    const fileId = await upload(h, b, hostile);
    await ok(call(h, 'POST', '/v1/finance/imports', b, { fileId, format: 'csv', mapping }), 201);
    const plain = (await ok(call(h, 'GET', '/v1/finance/transactions?q=Plain', b), 200)).transactions[0];
    await ok(call(h, 'PATCH', `/v1/finance/transactions/${plain.id}`, b, { note: '\tcmd|calc' }), 200);
    const csv = await call(h, 'GET', '/v1/finance/export?format=csv', b);
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).split('\r\n').map((line) => line.replace(/^[0-9a-f-]{36},/, ''));
    expect(lines).toEqual([
      'id,date,description,amount,currency,account,category,counterparty,note,reconciled',
      `2026-10-05,"'=HYPERLINK(""http://evil.example/"",""refund"")",-10.00,USD,default,,'@SUM(A1),,false`,
      "2026-10-06,'+1 555 0100 phone,-20.00,USD,default,,'-2+3,,false",
      "2026-10-07,Plain shop,30.00,USD,default,,Plain Shop,'\tcmd|calc,false",
      '',
    ]);
  });

  it('keeps scopes and roles: read keys read, members read but do not write, other workspaces see 404', async () => {
    const owner = await signUp(h);
    const reader = bearer(await createKey(h, owner, ['finance:read']));
    await error(call(h, 'POST', '/v1/finance/categories', reader, { name: 'Z', kind: 'income' }), 403, 'forbidden');
    await error(call(h, 'POST', '/v1/finance/rules/apply', reader, {}), 403, 'forbidden');
    const cafe = await byDescription('Corner cafe');
    // another workspace: the ids do not exist there
    await error(call(h, 'GET', `/v1/finance/transactions/${cafe.id}`, reader), 404, 'not_found');
    await error(
      call(h, 'PATCH', `/v1/finance/transactions/${cafe.id}`, bearer(await createKey(h, owner, ['finance:write'])), {
        note: 'x',
      }),
      404,
      'not_found',
    );
    expect((await ok(call(h, 'GET', '/v1/finance/transactions', reader), 200)).transactions).toEqual([]);
    const rules = await ok(call(h, 'GET', '/v1/finance/rules', a), 200);
    await error(
      call(h, 'DELETE', `/v1/finance/rules/${rules.rules[0].id}`, bearer(await createKey(h, owner, ['finance:write']))),
      404,
      'not_found',
    );
    // a member of this workspace reads with a session but may not write
    await addMember(h, owner.userId, workspaceId, 'member');
    const member = { cookie: owner.cookie, 'x-workspace-id': workspaceId };
    expect((await ok(call(h, 'GET', '/v1/finance/transactions', member), 200)).transactions.length).toBeGreaterThan(0);
    await ok(call(h, 'GET', '/v1/finance/summary', member), 200);
    await error(call(h, 'PATCH', `/v1/finance/transactions/${cafe.id}`, member, { note: 'x' }), 403, 'forbidden');
    await error(call(h, 'POST', '/v1/finance/rules/apply', member, {}), 403, 'forbidden');
  });
});
