/**
 * The finance pages end to end in Chromium against the real service: a bank CSV imported through the
 * wizard (preview, mapping, per-line errors, then duplicates on a second import), a rule tested and
 * added, a category edited in place, the summary per currency with its charts, and the CSV export.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { pollUntil } from '../helpers/poll';
import { checkPage } from './browser';
import { startConsole, type ConsoleSession } from './consoleSession';

jest.setTimeout(180_000);

let s: ConsoleSession;
let page: Page;

beforeAll(async () => {
  s = await startConsole();
  page = s.page;
}, 180_000);

afterAll(async () => {
  await s?.stop();
});

// A German bank's export: `;` separated, decimal comma, one line the bank wrote wrongly.
const CSV = [
  'Booking date;Text;Amount;Currency',
  '2026-11-03;REWE Markt Berlin;-23,45;EUR',
  '2026-11-05;Salary ACME GmbH;2.500,00;EUR',
  '2026-11-20;REWE Markt Berlin;-10,05;EUR',
  '2026-12-01;Coffee Shop;-4,50;USD',
  '31.12.2026;Broken line;-1,00;EUR',
].join('\n');

async function expectText(locator: ReturnType<Page['locator']>, pattern: RegExp): Promise<void> {
  await pollUntil(
    20_000,
    async () => (await locator.textContent()) ?? '',
    (t) => pattern.test(t),
    `text ${pattern}`,
  );
}

const tab = (name: string) => page.getByRole('navigation', { name: 'Finance' }).getByRole('link', { name });

async function importCsv(): Promise<void> {
  await page.getByLabel('Bank export (CSV, OFX or QFX)').setInputFiles({
    name: 'bank.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(CSV),
  });
  await page.getByRole('region', { name: "The file's first rows" }).getByText('Salary ACME GmbH').waitFor();
  await page.getByLabel('Date column', { exact: true }).selectOption('Booking date');
  await page.getByLabel('Description column', { exact: true }).selectOption('Text');
  await page.getByLabel('Amount column', { exact: true }).selectOption('Amount');
  await page.getByLabel('Currency column (optional)', { exact: true }).selectOption('Currency');
  await page.getByLabel('Decimal separator', { exact: true }).selectOption(',');
}

describe('finance console', () => {
  it('imports a bank CSV through the wizard: preview, per-line errors, then duplicates', async () => {
    await s.go('/finance');
    await page.getByRole('heading', { name: 'Finance', level: 1 }).waitFor();
    await page.getByText('No transactions in this range.').waitFor();
    await checkPage(page, 'finance-summary-empty');

    await tab('Import').click();
    await page.getByRole('heading', { name: 'Import a bank export' }).waitFor();
    await importCsv();
    // the first rows are shown under their columns, the mapped ones marked
    const preview = page.getByRole('region', { name: "The file's first rows" });
    expect(await preview.locator('tbody tr').count()).toBe(5);
    await expectText(preview.locator('thead'), /Booking datedate.*Textdescription.*Amountamount.*Currencycurrency/);
    await checkPage(page, 'finance-import-mapping');

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expectText(page.getByTestId('import-summary'), /5 rows read · 4 imported · 0 duplicates · 1 errors/);
    const problems = page.getByRole('region', { name: 'Lines not imported' });
    await problems.getByRole('cell', { name: '6', exact: true }).waitFor();
    await checkPage(page, 'finance-import-result');

    // the same export again: every good row is already there
    await importCsv();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expectText(page.getByTestId('import-summary'), /5 rows read · 0 imported · 4 duplicates · 1 errors/);
    await page.getByText(/0 imported, 4 duplicates, 1 errors/).waitFor();
  });

  it('tests a rule against the transactions, adds it and applies it', async () => {
    await tab('Categories and rules').click();
    await page.getByRole('heading', { name: 'Categories and rules' }).waitFor();
    await page.getByText('No rules yet.').waitFor();
    await page.getByLabel('Description contains (any case)').fill('rewe');
    await page.getByLabel('Category', { exact: true }).selectOption({ label: 'Groceries' });
    const preview = page.getByTestId('rule-preview');
    await expectText(preview, /Matches 2 of the latest 4 transactions/);
    await expectText(preview, /2026-11-20 · REWE Markt Berlin · -10\.05 EUR/);
    await page.getByLabel('Amount at most (signed)').fill('-20');
    await expectText(preview, /Matches 1 of the latest 4 transactions/);
    await page.getByLabel('Amount at most (signed)').fill('');
    // the pattern runs on RE2 in the preview as on the service: RE2's own syntax, and the service's refusal
    const pattern = page.getByLabel('Description matches (RE2 regular expression)');
    await pattern.fill('(?i)rewe');
    await expectText(preview, /Matches 2 of the latest 4 transactions/);
    await pattern.fill('(?=rewe)');
    await page.getByText(/The pattern cannot be read: Not a supported regular expression: /).waitFor();
    await pattern.fill('');
    await expectText(preview, /Matches 2 of the latest 4 transactions/);
    await checkPage(page, 'finance-rules');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await expectText(page.getByTestId('rule'), /description contains "rewe" → Groceries/);

    await page.getByRole('button', { name: 'Apply rules' }).click();
    await page.getByText('4 transactions examined, 2 changed.').waitFor();
  });

  it('edits a category in place and filters by it', async () => {
    await tab('Transactions').click();
    await page.getByRole('heading', { name: 'Transactions' }).waitFor();
    await pollUntil(
      20_000,
      () => page.getByTestId('transaction').count(),
      (n) => n === 4,
      'four transactions',
    );
    const salary = page.getByLabel('Category of Salary ACME GmbH on 2026-11-05');
    await salary.selectOption({ label: 'Salary' });
    await pollUntil(
      20_000,
      async () => {
        const res = await s.asSession('/v1/finance/transactions?q=Salary');
        return ((await res.json()) as { transactions: { categoryId: string | null }[] }).transactions[0]?.categoryId;
      },
      (id) => Boolean(id),
      'the category saved',
    );
    await page.getByLabel('Category', { exact: true }).selectOption({ label: 'Groceries' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await pollUntil(
      20_000,
      () => page.getByTestId('transaction').count(),
      (n) => n === 2,
      'two groceries',
    );
    await checkPage(page, 'finance-transactions');
  });

  it('shows the summary per currency with its charts, and exports the transactions', async () => {
    await tab('Summary').click();
    const eur = page.getByTestId('totals-EUR');
    await expectText(eur, /In 2500\.00 EUR · Out 33\.50 EUR · Net 2466\.50 EUR · 3 transactions/);
    await expectText(page.getByTestId('totals-USD'), /In 0\.00 USD · Out 4\.50 USD · Net -4\.50 USD · 1 transactions/);
    const eurSection = page.getByRole('region', { name: 'EUR' });
    const byCategory = eurSection.getByTestId('chart-By category');
    await byCategory.locator('.recharts-bar-rectangle').first().waitFor();
    // one bar per category and direction with money in it: Groceries out, Salary in
    expect(await byCategory.locator('.recharts-bar-rectangle path').count()).toBeGreaterThanOrEqual(2);
    const labels = await byCategory.locator('.recharts-cartesian-axis-tick-value').allTextContents();
    expect(labels).toEqual(expect.arrayContaining(['Groceries', 'Salary']));
    const byMonth = eurSection.getByTestId('chart-By month');
    await byMonth.locator('.recharts-bar-rectangle').first().waitFor();
    expect(await byMonth.locator('.recharts-cartesian-axis-tick-value').allTextContents()).toEqual(
      expect.arrayContaining(['2026-11']),
    );
    await checkPage(page, 'finance-summary');

    await tab('Export and reports').click();
    await page.getByLabel('From', { exact: true }).fill('2026-01-01');
    await page.getByLabel('To', { exact: true }).fill('2026-12-31');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.split('\r\n')[0]).toBe(
      'id,date,description,amount,currency,account,category,counterparty,note,reconciled',
    );
    expect(text).toContain('REWE Markt Berlin,-23.45,EUR');
    expect(text).toContain('Groceries');
    await checkPage(page, 'finance-reports');
  });
});
