import { PassThrough, type Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { exceljs } from '../../platform/lazyPackages';
import type { Identity } from '../identity/identity';
import { csvTextCell } from '../shared/csv';
import { presentMoney } from './money';
import { dateText } from './presenters';

export const EXPORT_COLUMNS = [
  'id',
  'date',
  'description',
  'amount',
  'currency',
  'account',
  'category',
  'counterparty',
  'note',
  'reconciled',
] as const;

interface ExportRow {
  id: string;
  date: string | Date;
  description: string;
  amount_micros: string;
  currency: string;
  account: string;
  category: string | null;
  counterparty: string | null;
  note: string | null;
  reconciled: boolean;
}

/** Rows read per query while the export streams. */
const PAGE = 1000;

/**
 * The workspace's transactions within the dates, oldest first, read page by page (keyset on date and id)
 * so an export of any size holds one page in memory.
 */
async function* exportRows(
  em: EntityManager,
  workspaceId: string,
  range: { from?: string; to?: string },
): AsyncGenerator<ExportRow> {
  let after: { date: string; id: string } | null = null;
  for (;;) {
    const params: unknown[] = [workspaceId];
    let where = 't.workspace_id = ?';
    if (range.from) {
      where += ' and t.date >= ?';
      params.push(range.from);
    }
    if (range.to) {
      where += ' and t.date <= ?';
      params.push(range.to);
    }
    if (after) {
      where += ' and (t.date, t.id) > (?::date, ?::uuid)';
      params.push(after.date, after.id);
    }
    const rows: ExportRow[] = await em.getConnection().execute<ExportRow[]>(
      `select t.id, to_char(t.date, 'YYYY-MM-DD') as date, t.description, t.amount_micros::text as amount_micros,
         t.currency, t.account, c.name as category, t.counterparty, t.note, t.reconciled
       from finance_transactions t left join finance_categories c on c.id = t.category_id
       where ${where} order by t.date, t.id limit ${PAGE}`,
      params,
    );
    for (const row of rows) yield row;
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1];
    after = { date: dateText(last.date), id: last.id };
  }
}

/** An amount's exact decimal text as the API shows it (`-12.50`), never read through a float. */
class Amount {
  constructor(readonly text: string) {}
}

type Cell = string | number | boolean | Amount;

function cells(row: ExportRow): Cell[] {
  return [
    row.id,
    dateText(row.date),
    row.description,
    new Amount(presentMoney(row.amount_micros, row.currency).amount),
    row.currency,
    row.account,
    row.category ?? '',
    row.counterparty ?? '',
    row.note ?? '',
    row.reconciled,
  ];
}

/**
 * One CSV cell: amounts as their exact text, booleans as they print; text (a bank's description, a person's
 * note) quoted only when it must be, and kept from being read as a formula by a spreadsheet
 * (domain/shared/csv.ts).
 */
function csvCell(value: Cell): string {
  if (value instanceof Amount) return value.text;
  return typeof value === 'string' ? csvTextCell(value, 'needed') : String(value);
}

/** One XLSX cell: an amount is a number cell, which a spreadsheet sums (its 15 significant digits hold it). */
const xlsxCell = (value: Cell) => (value instanceof Amount ? Number(value.text) : value);

/**
 * Streams the transactions as CSV (RFC 4180, with a header) or XLSX (ExcelJS's streaming writer). The
 * stream ends in an error, cutting the response, should a query fail midway.
 */
export function exportTransactions(
  em: EntityManager,
  identity: Identity,
  query: { from?: string; to?: string; format: 'csv' | 'xlsx' },
): Readable {
  const out = new PassThrough();
  const rows = exportRows(em, identity.workspaceId, query);
  const produce =
    query.format === 'csv'
      ? async () => {
          out.write(`${EXPORT_COLUMNS.join(',')}\r\n`);
          for await (const row of rows) {
            if (!out.write(`${cells(row).map(csvCell).join(',')}\r\n`)) {
              await new Promise((resolve) => out.once('drain', resolve));
            }
          }
          out.end();
        }
      : async () => {
          const workbook = new (await exceljs()).stream.xlsx.WorkbookWriter({ stream: out, useStyles: false });
          const sheet = workbook.addWorksheet('Transactions');
          sheet.addRow([...EXPORT_COLUMNS]).commit();
          for await (const row of rows) sheet.addRow(cells(row).map(xlsxCell)).commit();
          sheet.commit();
          await workbook.commit();
        };
  produce().catch((err: unknown) => out.destroy(err as Error));
  return out;
}
