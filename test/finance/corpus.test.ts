import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { ok } from '../helpers/responses';
import { call, upload, type Headers } from './helpers';

// Real banks' exports that this project did not write (test/finance/corpus/README.md), each imported through
// the API and compared with what a maintained reader makes of the same file: ofxparse for OFX, csv2ofx for
// CSV. Same transactions, same totals to the cent, and a per-line error where a file is broken.
const CORPUS = path.join(__dirname, 'corpus');

interface Expected {
  date: string;
  amount: string;
}

/** A decimal text as integer cents, exactly (`"-1778.3952"` → -177840, half away from zero). */
function cents(text: string): bigint {
  const negative = text.startsWith('-');
  const [whole, frac = ''] = text.replace(/^[+-]/, '').split('.');
  const micros = BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, '0').slice(0, 6));
  const rounded = (micros + 5_000n) / 10_000n;
  return negative ? -rounded : rounded;
}

const key = (t: { date: string; amount: string }) => `${t.date} ${cents(t.amount)}`;

describe('bank files from real banks', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  const workspace = async (): Promise<Headers> => {
    const account = await signUp(h);
    await setPlan(h, account.workspaceId, 'scale');
    return bearer(await createKey(h, account, ['finance:read', 'finance:write', 'files:write']));
  };
  const transactions = async (auth: Headers) =>
    (await ok(call(h, 'GET', '/v1/finance/transactions?limit=100', auth), 200)).transactions as any[];

  const ofxFiles = readdirSync(path.join(CORPUS, 'ofx')).filter((f) => f.endsWith('.ofx'));
  const readable = ofxFiles.filter((f) => !expectedOf('ofx', f).refused);
  const broken = ofxFiles.filter((f) => expectedOf('ofx', f).refused);

  it.each(readable)('OFX %s: the same accounts, transactions and totals as ofxparse', async (file) => {
    const expected = expectedOf('ofx', file);
    const auth = await workspace();
    const bytes = readFileSync(path.join(CORPUS, 'ofx', file));
    const fileId = await upload(h, auth, bytes, file);
    const result = await ok(call(h, 'POST', '/v1/finance/imports', auth, { fileId, format: 'ofx' }), 201);
    expect(result.errors).toEqual([]);
    const rows = await transactions(auth);
    const count = expected.accounts.reduce((n: number, a: any) => n + a.transactions.length, 0);
    expect(result).toMatchObject({ rows: count, imported: count, duplicates: 0 });
    for (const account of expected.accounts) {
      const ours = expected.accounts.length > 1 ? rows.filter((t) => t.account === account.accountId) : rows;
      expect(ours.map(key).sort()).toEqual(account.transactions.map(key).sort());
      if (account.currency) for (const t of ours) expect(t.currency).toBe(account.currency);
      const total = ours.reduce((sum, t) => sum + cents(t.amount), 0n);
      expect(total).toBe(cents(account.total));
      expect(ours.reduce((sum, t) => sum + BigInt(t.amountMinor), 0n)).toBe(
        account.transactions.reduce((sum: bigint, t: Expected) => sum + cents(t.amount), 0n),
      );
    }
    if (expected.accounts.length === 1 && count > 0) {
      expect(rows.every((t) => t.account === expected.accounts[0].accountId)).toBe(true);
    }
  });

  it.each(broken)(
    'OFX %s (refused whole by ofxparse): an error per broken transaction, with its line',
    async (file) => {
      const auth = await workspace();
      const text = readFileSync(path.join(CORPUS, 'ofx', file), 'utf8');
      const trnLines = text.split('\n').flatMap((l, i) => (l.includes('<STMTTRN>') ? [i + 1] : []));
      const fileId = await upload(h, auth, text, file);
      const result = await ok(call(h, 'POST', '/v1/finance/imports', auth, { fileId, format: 'ofx' }), 201);
      expect(result.rows).toBe(trnLines.length);
      expect(result.errors.length).toBeGreaterThan(0);
      for (const e of result.errors) {
        expect(trnLines).toContain(e.line);
        expect(e.message).toMatch(/^Invalid (DTPOSTED|TRNAMT) "/);
      }
      expect(result.imported).toBe(trnLines.length - result.errors.length);
      expect(await transactions(auth)).toHaveLength(result.imported);
    },
  );

  const csvFiles = readdirSync(path.join(CORPUS, 'csv')).filter((f) => f.endsWith('.csv'));

  it.each(csvFiles)('CSV %s: the same transactions and totals as csv2ofx', async (file) => {
    const base = file.replace(/\.csv$/, '');
    const { mapping } = JSON.parse(readFileSync(path.join(CORPUS, 'csv', `${base}.mapping.json`), 'utf8'));
    const expected = expectedOf('csv', file);
    const auth = await workspace();
    const fileId = await upload(h, auth, readFileSync(path.join(CORPUS, 'csv', file)), file);
    const result = await ok(call(h, 'POST', '/v1/finance/imports', auth, { fileId, format: 'csv', mapping }), 201);
    expect(result.errors).toEqual([]);
    expect(result.imported).toBe(expected.transactions.length);
    const rows = await transactions(auth);
    expect(rows.map(key).sort()).toEqual(expected.transactions.map(key).sort());
    for (const t of rows) expect(t.currency).toBe(expected.currency);
    expect(rows.reduce((sum, t) => sum + cents(t.amount), 0n)).toBe(cents(expected.total));
  });

  it('reads several accounts of one file into their own accounts', async () => {
    // two real statements (one bank, one card) joined as banks that export every account at once do
    const bank = readFileSync(path.join(CORPUS, 'ofx', 'checking.ofx'), 'utf8');
    const card = readFileSync(path.join(CORPUS, 'ofx', 'anzcc.ofx'), 'utf8');
    const cardPart = card.slice(card.indexOf('<CREDITCARDMSGSRSV1>'), card.indexOf('</CREDITCARDMSGSRSV1>') + 21);
    const joined = bank.replace('</OFX>', `${cardPart}\n</OFX>`);
    const auth = await workspace();
    const fileId = await upload(h, auth, joined, 'all-accounts.ofx');
    const result = await ok(call(h, 'POST', '/v1/finance/imports', auth, { fileId, format: 'ofx' }), 201);
    expect(result).toMatchObject({ rows: 4, imported: 4, errors: [] });
    const rows = await transactions(auth);
    expect(new Set(rows.map((t) => `${t.account}/${t.currency}`))).toEqual(
      new Set(['1452687~7/USD', '1234123412341234/AUD']),
    );
    const again = await ok(
      call(h, 'POST', '/v1/finance/imports', auth, {
        fileId: await upload(h, auth, joined, 'again.ofx'),
        format: 'ofx',
      }),
      201,
    );
    expect(again).toMatchObject({ imported: 0, duplicates: 4 });
  });
});

function expectedOf(kind: 'ofx' | 'csv', file: string): any {
  const name = file.replace(/\.(ofx|csv)$/, '.expected.json');
  return JSON.parse(readFileSync(path.join(CORPUS, kind, name), 'utf8'));
}
