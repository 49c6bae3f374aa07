/**
 * The data pages end to end in Chromium against the real service: a file data source made and filled by
 * uploading a CSV, tested, read through the query builder (columns, a filter, an order, a limit), the read
 * saved as a table whose rows show after its refresh workflow ran, and the copilot's structured read.
 */
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

const PEOPLE = ['name,city,age', 'Ada,Berlin,36', 'Grace,New York,45', 'Linus,Berlin,28', 'Margaret,Boston,33'].join(
  '\n',
);

async function expectText(locator: ReturnType<Page['locator']>, pattern: RegExp): Promise<void> {
  await pollUntil(
    20_000,
    async () => (await locator.textContent()) ?? '',
    (t) => pattern.test(t),
    `text ${pattern}`,
  );
}

const gridColumn = async (grid: ReturnType<Page['locator']>, n: number) =>
  grid.locator(`tbody tr td:nth-child(${n})`).allTextContents();

describe('data console', () => {
  it('creates a file data source, uploads a CSV and tests it', async () => {
    await s.go('/data-sources');
    await page.getByRole('heading', { name: 'Data sources', level: 1 }).waitFor();
    await page.getByText('No data sources yet.').waitFor();
    await checkPage(page, 'data-sources-empty');
    // a database's connection asks for its server; a file source for nothing more
    await page.getByLabel('Type').selectOption('postgres');
    await page.getByLabel('Port').waitFor();
    expect(await page.getByLabel('Port').inputValue()).toBe('5432');
    await page.getByLabel('Type').selectOption('file');
    await page.getByLabel('Name').fill('People');
    await page.getByRole('button', { name: 'Add data source' }).click();

    await page.getByRole('heading', { name: /^People/, level: 1 }).waitFor();
    await page.getByText('Nothing to read yet.').waitFor();
    await page.getByLabel('CSV or XLSX file (first row the header)').setInputFiles({
      name: 'people.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(PEOPLE),
    });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByText('Uploaded: people (4 rows)').waitFor();
    await page.getByRole('button', { name: /^people/ }).waitFor();

    await page.getByRole('button', { name: 'Test the connection' }).click();
    await expectText(page.getByTestId('test-result'), /^Connected in \d+ ms$/);
    await expectText(page.locator('h1'), /Connected/);
    await checkPage(page, 'data-source');
  });

  it('reads the sheet through the builder and saves the read as a table with its rows', async () => {
    await page.getByRole('button', { name: /^people/ }).click();
    await page.getByRole('heading', { name: 'Read people' }).waitFor();
    await page.getByRole('checkbox', { name: /^age/ }).uncheck();
    await page.getByRole('button', { name: 'Add a filter' }).click();
    await page.getByLabel('Column of filter 1').selectOption('city');
    await page.getByLabel('Value of filter 1').fill('Berlin');
    await page.getByRole('button', { name: 'Add a sort key' }).click();
    await page.getByLabel('Sort key 1', { exact: true }).selectOption('name');
    await page.getByLabel('Direction of sort key 1').selectOption('desc');
    await page.getByLabel('Rows at most (1 to 1000)').fill('10');
    await page.getByRole('button', { name: 'Read', exact: true }).click();

    await expectText(page.getByTestId('read-status'), /^2 rows$/);
    const grid = page.getByRole('region', { name: 'Rows of people' });
    expect(await grid.locator('th').allTextContents()).toEqual(['name', 'city']);
    expect(await gridColumn(grid, 1)).toEqual(['Linus', 'Ada']);
    await checkPage(page, 'data-source-read');

    await page.getByLabel('Table name').fill('Berlin people');
    await page.getByLabel('Refresh schedule (cron, UTC, optional)').fill('0 6 * * *');
    await page.getByRole('button', { name: 'Save table' }).click();
    await page.getByRole('heading', { name: /^Berlin people/, level: 1 }).waitFor();
    // the first refresh runs at once in its workflow; the rows show when it is done
    await expectText(page.locator('h1'), /Up to date/);
    await expectText(page.getByTestId('row-count'), /^2$/);
    const rows = page.getByRole('region', { name: 'Rows of Berlin people' });
    await rows.locator('tbody tr').nth(1).waitFor();
    expect(await gridColumn(rows, 1)).toEqual(['Linus', 'Ada']);
    await page.getByText('0 6 * * *').waitFor();
    await checkPage(page, 'saved-table');

    // a refresh by hand reads the source again: the same rows, and no error shown
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expectText(page.locator('h1'), /Up to date/);
    await expectText(page.getByTestId('row-count'), /^2$/);
    expect(await page.getByRole('alert').count()).toBe(0);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Saved tables' }).click();
    await page.getByRole('link', { name: 'Berlin people' }).waitFor();
    await expectText(page.locator('.card'), /From People · 2 rows · refreshed on "0 6 \* \* \*" \(UTC\)/);
    await checkPage(page, 'saved-tables');
  });

  it("asks the source's copilot and shows the structured read it made", async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Data sources' }).click();
    await page.getByRole('link', { name: 'People' }).click();
    await page.getByLabel('Question').fill('first 5 people where city = Berlin');
    await page.getByRole('button', { name: 'Ask' }).click();
    await expectText(page.getByTestId('copilot-reply'), /Found 2 rows of people/);
    await page.getByText('The read it made').click();
    await expectText(page.locator('pre.json'), /"object": "people"/);
    const answer = page.getByRole('region', { name: 'Copilot answer 1' });
    expect((await gridColumn(answer, 1)).sort()).toEqual(['Ada', 'Linus']);
    await checkPage(page, 'data-source-copilot');
  });
});
