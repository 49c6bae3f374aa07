import { z } from 'zod';
import { approvalPolicySchema } from './approvalPolicy';
import { CATEGORY_KINDS } from '../../db/entities/FinanceCategory';
import { DATE_FORMATS } from '../../domain/finance/dates';
import { isCurrency } from '../../domain/finance/money';
import { pageQuery } from '../../domain/shared/pagination';
import { day, uuid } from './common';
import { searchText } from './knowledge';
import { text, trimmedText } from './text';

const column = text(1, 200).describe('A column name of the header line');

export const csvMapping = z
  .strictObject({
    date: column,
    description: column,
    amount: column.optional(),
    debit: column.optional().describe('Money out (with credit instead of amount)'),
    credit: column.optional().describe('Money in (with debit instead of amount)'),
    currency: column.optional().describe('Absent: the currency the amount names, else defaultCurrency'),
    counterparty: column.optional(),
    dateFormat: z.enum(DATE_FORMATS).optional(),
    decimal: z.enum(['.', ',']).optional(),
    defaultCurrency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .refine((c) => isCurrency(c), 'Not an ISO 4217 currency code')
      .optional()
      .describe('The currency of rows that name none (default USD)'),
    negate: z.boolean().optional().describe('The file writes money out as positive (many card statements)'),
  })
  .refine(
    (m) => (m.amount !== undefined) !== (m.debit !== undefined && m.credit !== undefined),
    'Name either amount, or both debit and credit',
  );

export const createImportBody = z
  .strictObject({
    fileId: uuid,
    format: z.enum(['csv', 'ofx']),
    account: trimmedText(200).optional(),
    mapping: csvMapping.optional(),
  })
  .refine((b) => b.format !== 'csv' || b.mapping !== undefined, {
    path: ['mapping'],
    message: 'A CSV import needs a mapping',
  });

const lineError = z.object({ line: z.number().int(), message: z.string() });

export const importOut = z.object({
  id: z.uuid(),
  fileId: z.uuid(),
  format: z.enum(['csv', 'ofx']),
  account: z.string(),
  status: z.string(),
  rows: z.number().int(),
  imported: z.number().int(),
  duplicates: z.number().int(),
  errors: z.array(lineError),
  createdAt: z.iso.datetime(),
});

export const importListOut = z.object({ imports: z.array(importOut), nextCursor: z.string().nullable() });

const range = { from: day.optional(), to: day.optional() };

export const transactionQuery = pageQuery.extend({
  ...range,
  categoryId: uuid.optional(),
  q: searchText.optional(),
});

export const transactionOut = z.object({
  id: z.uuid(),
  date: z.string(),
  description: z.string(),
  amount: z.string().describe('Exact signed decimal in `currency` (`"-12.50"`); never converted'),
  amountMinor: z.number().int().describe('The same in integer minor units of `currency` (`-1250`)'),
  currency: z.string(),
  account: z.string(),
  categoryId: z.uuid().nullable(),
  counterparty: z.string().nullable(),
  note: z.string().nullable(),
  importId: z.uuid(),
  reconciled: z.boolean(),
  reconciledFileId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
});

export const transactionListOut = z.object({
  transactions: z.array(transactionOut),
  nextCursor: z.string().nullable(),
});

export const updateTransactionBody = z
  .strictObject({
    categoryId: uuid.nullable().optional(),
    note: text(0, 10_000).nullable().optional(),
    counterparty: text(0, 200).nullable().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'Nothing to update')
  .meta({ minProperties: 1 });

export const createCategoryBody = z.strictObject({ name: trimmedText(100), kind: z.enum(CATEGORY_KINDS) });

export const categoryOut = z.object({
  id: z.uuid(),
  name: z.string(),
  kind: z.enum(CATEGORY_KINDS),
  isDefault: z.boolean(),
  createdAt: z.iso.datetime(),
});

export const categoryListOut = z.object({ categories: z.array(categoryOut), nextCursor: z.string().nullable() });

const amount = z.number().min(-1_000_000_000).max(1_000_000_000);

export const createRuleBody = z.strictObject({
  match: z
    .strictObject({
      descriptionContains: text(1, 200).optional(),
      descriptionRegex: text(1, 500).optional().describe('RE2 syntax, matched in linear time'),
      amountMin: amount.optional(),
      amountMax: amount.optional(),
    })
    .refine((m) => Object.keys(m).length > 0, 'Give at least one condition')
    .meta({ minProperties: 1 }),
  categoryId: uuid,
  priority: z.number().int().min(-1000).max(1000).default(0),
});

export const ruleOut = z.object({
  id: z.uuid(),
  match: z.object({
    descriptionContains: z.string().optional(),
    descriptionRegex: z.string().optional(),
    amountMin: z.number().optional(),
    amountMax: z.number().optional(),
  }),
  categoryId: z.uuid(),
  priority: z.number().int(),
  createdAt: z.iso.datetime(),
});

export const ruleListOut = z.object({ rules: z.array(ruleOut), nextCursor: z.string().nullable() });

export const applyRulesBody = z.strictObject(range);

export const applyRulesOut = z.object({ examined: z.number().int(), updated: z.number().int() });

export const summaryQuery = z.object({ ...range, groupBy: z.enum(['category', 'month']).default('category') });

const totals = {
  currency: z.string(),
  in: z.string().describe('Money in, exact decimal text in `currency`'),
  out: z.string().describe('Money out, exact decimal text in `currency`'),
  net: z.string().describe('In minus out, exact decimal text in `currency`'),
  count: z.number().int(),
};

export const summaryOut = z.object({
  groupBy: z.enum(['category', 'month']),
  from: z.string().nullable(),
  to: z.string().nullable(),
  groups: z.array(z.object({ key: z.string().nullable(), ...totals })),
  totals: z.array(z.object(totals)),
});

export const exportQuery = z.object({ ...range, format: z.enum(['csv', 'xlsx']).default('csv') });

export const reconciliationBody = z.strictObject({
  from: day,
  to: day,
  fileIds: z.array(uuid).min(1).max(50).describe('Invoices and receipts in the file library: PDF, CSV or XLSX'),
  approvalPolicy: approvalPolicySchema
    .nullable()
    .optional()
    .describe("Sets the finance agent's approval policy first (null removes it); changing it needs agents:write"),
});

export const reportBody = z.strictObject({ from: day, to: day, kind: z.enum(['monthly', 'cashflow']) });
