import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { pdfText } from '../../domain/finance/documents';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { waitForStatus } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { call, upload, type Headers } from './helpers';

/** A real PDF invoice, as an accounting package would print one. */
async function invoicePdf(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  lines.forEach((text, i) => page.drawText(text, { x: 50, y: 750 - i * 18, size: 12, font }));
  return Buffer.from(await doc.save());
}

const BANK = [
  'date,description,amount,counterparty',
  '2026-10-03,CARD 4411 CLOUD HOSTING INC,-99.99,Cloud Hosting Inc',
  '2026-10-10,Paper Supplies Co,-45.00,Paper Supplies Co',
  '2026-10-15,Unmatched purchase,-12.34,',
  '2026-10-20,ACME Corp payment,3000.00,ACME Corp',
  '2026-11-02,Oak Street rent,-1200.00,Oak Street',
].join('\n');

// Reconciliation and report runs: real runs of the finance agent through the approval gate (docs/api/finance.md).
describe('finance runs', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let a: Headers;
  let fileIds: string[];
  beforeAll(async () => {
    ({ h, stop } = await startRunStack());
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    a = bearer(
      await createKey(h, owner, [
        'finance:read',
        'finance:write',
        'files:read',
        'files:write',
        'runs:read',
        'runs:write',
      ]),
    );
    const mapping = { date: 'date', description: 'description', amount: 'amount', counterparty: 'counterparty' };
    const bank = await upload(h, a, BANK);
    await ok(call(h, 'POST', '/v1/finance/imports', a, { fileId: bank, format: 'csv', mapping }), 201);
    fileIds = [
      await upload(
        h,
        a,
        await invoicePdf([
          'INVOICE 1042',
          'Cloud Hosting Inc',
          'Date: 2026-10-01',
          'Hosting October',
          'Total: 99.99 USD',
        ]),
        'cloud-1042.pdf',
      ),
      await upload(
        h,
        a,
        await invoicePdf(['Paper Supplies Co - Receipt', '09.10.2026', 'Paper A4 x 10   45,00', 'Summe 45,00 EUR']),
        'paper.pdf',
      ),
      await upload(
        h,
        a,
        'date,vendor,amount\n2026-10-19,ACME Corp,"3,000.00"\n2026-10-30,Nobody,1.00\n',
        'receipts.csv',
      ),
    ];
  }, 120_000);
  afterAll(() => stop?.());

  const transactions = async () =>
    (await ok(call(h, 'GET', '/v1/finance/transactions?limit=100', a), 200)).transactions as any[];
  const reconcile = () =>
    ok(call(h, 'POST', '/v1/finance/reconciliations', a, { from: '2026-10-01', to: '2026-10-31', fileIds }), 201);

  it('proposes matches at the approval gate; a rejection reconciles nothing', async () => {
    const run = await reconcile();
    expect(run).toMatchObject({ status: 'queued', metadata: { finance: 'reconciliation' } });
    const waiting = await waitForStatus(h, a, run.id, 'needs_approval');
    expect(waiting.pendingAction).toMatchObject({ type: 'approval', tool: 'finance_apply_matches' });
    expect(waiting.pendingAction.args.matches).toHaveLength(3);
    await ok(call(h, 'POST', `/v1/runs/${run.id}/approve`, a, { approved: false, comment: 'not now' }), 202);
    const failed = await waitForStatus(h, a, run.id, 'failed');
    expect(failed.error.code).toBe('run.rejected');
    expect((await transactions()).filter((t) => t.reconciled)).toEqual([]);
  });

  it('marks exactly the approved matches reconciled', async () => {
    const run = await reconcile();
    const waiting = await waitForStatus(h, a, run.id, 'needs_approval');
    const matches = waiting.pendingAction.args.matches as any[];
    const rows = await transactions();
    const byDescription = (text: string) => rows.find((t) => t.description.includes(text));
    expect(matches.map((m) => [m.transactionId, m.fileId]).sort()).toEqual(
      [
        [byDescription('CLOUD HOSTING').id, fileIds[0]],
        [byDescription('Paper Supplies').id, fileIds[1]],
        [byDescription('ACME Corp').id, fileIds[2]],
      ].sort(),
    );
    await ok(call(h, 'POST', `/v1/runs/${run.id}/approve`, a, { approved: true }), 202);
    const done = await waitForStatus(h, a, run.id, 'succeeded');
    expect(done.output.reconciled).toBe(3);
    const after = await transactions();
    const reconciled = after.filter((t) => t.reconciled);
    expect(reconciled.map((t) => t.id).sort()).toEqual(matches.map((m) => m.transactionId).sort());
    expect(after.find((t) => t.description.includes('CLOUD HOSTING')).reconciledFileId).toBe(fileIds[0]);
    // a reconciled transaction is not proposed again: nothing is left to match
    const again = await reconcile();
    const second = await waitForStatus(h, a, again.id, 'needs_approval');
    expect(second.pendingAction.args.matches).toEqual([]);
    await ok(call(h, 'POST', `/v1/runs/${again.id}/cancel`, a), 202);
  });

  it('writes a monthly report as a PDF and a cash-flow report as an XLSX file in the library, per currency', async () => {
    // a yen account beside the dollar one: its amounts are never added to the dollars
    const yen = await upload(
      h,
      a,
      ['date,description,amount,currency', '2026-10-25,Refund,2500,JPY', '2026-11-05,Tokyo hotel,-15000,JPY'].join(
        '\n',
      ),
    );
    const yenMapping = { date: 'date', description: 'description', amount: 'amount', currency: 'currency' };
    await ok(
      call(h, 'POST', '/v1/finance/imports', a, { fileId: yen, format: 'csv', account: 'tokyo', mapping: yenMapping }),
      201,
    );
    const monthly = await ok(
      call(h, 'POST', '/v1/finance/reports', a, { from: '2026-10-01', to: '2026-11-30', kind: 'monthly' }),
      201,
    );
    const report = (await waitForStatus(h, a, monthly.id, 'succeeded')).output;
    expect(report).toMatchObject({ kind: 'monthly', from: '2026-10-01', to: '2026-11-30' });
    expect(report.lines).toContainEqual({
      month: '2026-10',
      currency: 'USD',
      category: null,
      in: '3000.00',
      out: '157.33',
      net: '2842.67',
      count: 4,
    });
    expect(report.lines).toContainEqual({
      month: '2026-11',
      currency: 'JPY',
      category: null,
      in: '0',
      out: '15000',
      net: '-15000',
      count: 1,
    });
    const pdf = await h.request(`/v1/files/${report.fileId}/content`, { headers: a });
    expect(pdf.headers.get('content-type')).toMatch(/application\/pdf/);
    const text = await pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain('Monthly report 2026-10-01 to 2026-11-30');
    expect(text).toContain('USD  in 3000.00  out 157.33  net 2842.67');
    expect(text).toContain('JPY  in 0  out 15000  net -15000');

    const cashflow = await ok(
      call(h, 'POST', '/v1/finance/reports', a, { from: '2026-10-01', to: '2026-11-30', kind: 'cashflow' }),
      201,
    );
    const flow = (await waitForStatus(h, a, cashflow.id, 'succeeded')).output;
    // the running balance is kept per currency
    expect(flow.lines).toEqual([
      expect.objectContaining({ month: '2026-10', currency: 'JPY', net: '2500', cumulative: '2500' }),
      expect.objectContaining({ month: '2026-10', currency: 'USD', net: '2842.67', cumulative: '2842.67' }),
      expect.objectContaining({ month: '2026-11', currency: 'JPY', net: '-15000', cumulative: '-12500' }),
      expect.objectContaining({ month: '2026-11', currency: 'USD', net: '-1200.00', cumulative: '1642.67' }),
    ]);
    const xlsx = await h.request(`/v1/files/${flow.fileId}/content`, { headers: a });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as never);
    const sheet = workbook.getWorksheet('Cash flow')!;
    expect(sheet.getRow(4).values).toEqual([undefined, '2026-11', 'JPY', 0, 15000, -15000, -12500, 1]);
    expect(sheet.getRow(5).values).toEqual([undefined, '2026-11', 'USD', 0, 1200, -1200, 1642.67, 1]);
  });

  it('refuses bad requests and callers without finance:write', async () => {
    await error(
      call(h, 'POST', '/v1/finance/reconciliations', a, { from: '2026-10-31', to: '2026-10-01', fileIds }),
      400,
      'validation_error',
    );
    const err = await error(
      call(h, 'POST', '/v1/finance/reconciliations', a, {
        from: '2026-10-01',
        to: '2026-10-31',
        fileIds: [randomUUID()],
      }),
      400,
      'validation_error',
    );
    expect(err.details.issues[0].path).toBe('fileIds.0');
    await error(
      call(h, 'POST', '/v1/finance/reports', a, { from: '2026-10-01', to: '2026-10-31', kind: 'weekly' }),
      400,
      'validation_error',
    );
    const stranger = await signUp(h);
    const reader = bearer(await createKey(h, stranger, ['finance:read', 'runs:write']));
    await error(
      call(h, 'POST', '/v1/finance/reports', reader, { from: '2026-10-01', to: '2026-10-31', kind: 'monthly' }),
      403,
      'forbidden',
    );
    // another workspace's files are unknown there
    const writer = bearer(await createKey(h, stranger, ['finance:write']));
    await error(
      call(h, 'POST', '/v1/finance/reconciliations', writer, { from: '2026-10-01', to: '2026-10-31', fileIds }),
      400,
      'validation_error',
    );
  });

  it('the finance tools do nothing in a run that is not a finance run', async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const k = bearer(await createKey(h, owner, ['agents:write', 'runs:read', 'runs:write']));
    const agent = await ok(
      call(h, 'POST', '/v1/agents', k, { name: 'Snoop', presetId: 'scripted', tools: ['finance_reconcile'] }),
      201,
    );
    const script = [{ tool: 'finance_reconcile', args: {} }, { finalToolResult: true }];
    const run = await ok(call(h, 'POST', '/v1/runs', k, { agentId: agent.id, input: { script } }), 201);
    const done = await waitForStatus(h, k, run.id, ['succeeded', 'failed']);
    expect(JSON.stringify(done.output)).toContain('works only in runs started by the finance routes');
  });
});
