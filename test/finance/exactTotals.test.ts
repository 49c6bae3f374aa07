import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { ok } from '../helpers/responses';
import { call, upload } from './helpers';

const ROWS = 100_000;

// Totals stay exact over 100,000 transactions: integer micro-units summed by PostgreSQL (docs/api/finance.md).
describe('finance totals at scale', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  it('imports 100,000 rows in one go and sums them to the cent, where a float sum drifts', async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const auth = bearer(await createKey(h, owner, ['finance:read', 'finance:write', 'files:write']));
    const lines = ['date,description,amount'];
    let exact = 0n;
    let float = 0;
    for (let i = 0; i < ROWS; i++) {
      const cents = (i % 3 === 0 ? -1 : 1) * (1 + (i % 997));
      const text = `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
      lines.push(`2026-${String(1 + (i % 12)).padStart(2, '0')}-01,Payment ${i},${text}`);
      exact += BigInt(cents);
      float += Number(text);
    }
    const fileId = await upload(h, auth, lines.join('\n'));
    const mapping = { date: 'date', description: 'description', amount: 'amount' };
    const result = await ok(call(h, 'POST', '/v1/finance/imports', auth, { fileId, format: 'csv', mapping }), 201);
    expect(result).toMatchObject({ rows: ROWS, imported: ROWS, duplicates: 0, errors: [] });
    const summary = await ok(call(h, 'GET', '/v1/finance/summary?groupBy=month', auth), 200);
    const expected = Number(exact) / 100;
    const neg = exact < 0n;
    const abs = neg ? -exact : exact;
    const expectedText = `${neg ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
    expect(summary.totals).toEqual([expect.objectContaining({ currency: 'USD', count: ROWS, net: expectedText })]);
    expect(summary.groups).toHaveLength(12);
    // the same numbers added as floats are off, which is why amounts are never floats here
    expect(float).not.toBe(expected);
  }, 180_000);
});
