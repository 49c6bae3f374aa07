import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { File } from '../../db/entities/File';
import { FinanceImport } from '../../db/entities/FinanceImport';
import { FinanceRule } from '../../db/entities/FinanceRule';
import { Workspace } from '../../db/entities/Workspace';
import type { Storage } from '../../platform/storage/storage';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { findPage } from '../shared/pagination';
import { parseCsvExport, type CsvMapping } from './csvImport';
import { parseOfxExport } from './ofxImport';
import type { ParsedExport, ParsedRow } from './parsedRow';
import { presentImport, type ImportView } from './presenters';
import { categorize, orderRules } from './ruleEngine';

export interface ImportRequest {
  fileId: string;
  format: 'csv' | 'ofx';
  account?: string;
  mapping?: CsvMapping;
}

/** Rows per insert statement: one JSON parameter each, well under PostgreSQL's limits. */
const BATCH = 2000;

/**
 * Imports a bank export from the file library (docs/api/finance.md) in one transaction: the import record
 * and every new transaction commit together or not at all. Rows already in the workspace (same
 * fingerprint) are counted as duplicates and skipped, so overlapping exports never duplicate a transaction.
 * @throws `not_found` for a file not in the workspace; `payload_too_large` over `maxBytes`;
 *   `validation_error` for a mapping the header does not fit or a file that is not the format
 */
export async function createImport(
  em: EntityManager,
  storage: Storage,
  maxBytes: number,
  identity: Identity,
  body: ImportRequest,
): Promise<ImportView> {
  const workspaceId = identity.workspaceId;
  const file = await em.findOne(File, { id: body.fileId, workspace: workspaceId });
  if (!file) throw errors.notFound('File');
  if (file.size > maxBytes) throw errors.payloadTooLarge(maxBytes);
  const text = decode(await readAll(await storage.get(file.storageKey), maxBytes));
  let result: ParsedExport & { account?: string | null };
  if (body.format === 'csv') {
    if (!body.mapping) throw errors.validation([{ path: 'mapping', message: 'A CSV import needs a mapping' }]);
    result = await parseCsvExport(text, body.mapping, body.mapping.defaultCurrency ?? 'USD');
  } else {
    result = parseOfxExport(text);
  }
  const account = body.account ?? result.account ?? 'default';
  const rules = orderRules(await em.find(FinanceRule, { workspace: workspaceId }));
  const record = new FinanceImport(
    em.getReference(Workspace, workspaceId),
    file.id,
    body.format,
    account,
    result.rows,
    0,
    0,
    result.errors.slice(0, 1000),
  );
  await em.transactional(async (tx) => {
    tx.persist(record);
    await tx.flush();
    let imported = 0;
    const rows = withFingerprints(accountOf(account, body.account, result.parsed), result.parsed);
    for (let i = 0; i < rows.length; i += BATCH) {
      imported += await insertBatch(tx, workspaceId, record.id, rows.slice(i, i + BATCH), (row) =>
        categorize(rules, row.description, row.amountMicros),
      );
    }
    record.imported = imported;
    record.duplicates = result.parsed.length - imported;
    await tx.flush();
  });
  return presentImport(record);
}

/** UTF-8 when the bytes are UTF-8 (a BOM is left for the parser), else Windows-1252 as older OFX files are. */
function decode(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

async function readAll(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      stream.destroy();
      throw errors.payloadTooLarge(maxBytes);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Each row's account: a file naming several accounts (an OFX file with several statements) keeps each
 * row in its own; otherwise every row is in the import's account (the one the request names, else the file's).
 */
function accountOf(importAccount: string, named: string | undefined, rows: ParsedRow[]): (row: ParsedRow) => string {
  const inFile = new Set(rows.map((r) => r.account).filter((a) => a !== null));
  if (inFile.size > 1 || (named === undefined && inFile.size === 1)) return (row) => row.account ?? importAccount;
  return () => importAccount;
}

type Fingerprinted = ParsedRow & { fingerprint: string; accountName: string };

/**
 * The fingerprint of account, date, amount, currency, description and the bank's id when the export has
 * one. Rows identical in all of these (two equal coffees on one day) are told apart by their occurrence in
 * the file, so a later export holding the same two rows finds both already imported.
 */
function withFingerprints(accountOfRow: (row: ParsedRow) => string, rows: ParsedRow[]): Fingerprinted[] {
  const seen = new Map<string, number>();
  return rows.map((row) => {
    const account = accountOfRow(row);
    const base = JSON.stringify([
      account,
      row.date,
      row.amountMicros,
      row.currency,
      row.description.toLowerCase(),
      row.bankId,
    ]);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const fingerprint = createHash('sha256')
      .update(row.bankId ? base : `${base}#${n}`)
      .digest('hex');
    return { ...row, fingerprint, accountName: account };
  });
}

/** Inserts new rows and skips those whose fingerprint the workspace has; answers how many were new. */
async function insertBatch(
  tx: EntityManager,
  workspaceId: string,
  importId: string,
  rows: Fingerprinted[],
  categoryOf: (row: ParsedRow) => string | null,
): Promise<number> {
  const payload = rows.map((r) => ({
    id: randomUUID(),
    account: r.accountName,
    date: r.date,
    description: r.description,
    amount: String(r.amountMicros),
    currency: r.currency,
    counterparty: r.counterparty,
    bank_id: r.bankId,
    fingerprint: r.fingerprint,
    category_id: categoryOf(r),
  }));
  const now = new Date();
  const inserted = await tx.getConnection().execute<Array<{ id: string }>>(
    `insert into finance_transactions (id, created_at, updated_at, workspace_id, import_id, account, date, description,
       amount_micros, currency, counterparty, bank_id, fingerprint, category_id, category_manual, reconciled)
     select u.id, ?, ?, ?, ?, u.account, u.date, u.description, u.amount, u.currency, u.counterparty, u.bank_id, u.fingerprint,
       u.category_id, false, false
     from jsonb_to_recordset(?::jsonb) as u(id uuid, account text, date date, description text, amount bigint, currency text,
       counterparty text, bank_id text, fingerprint text, category_id uuid)
     on conflict (workspace_id, fingerprint) do nothing
     returning id`,
    [now, now, workspaceId, importId, JSON.stringify(payload)],
    'all',
    tx.getTransactionContext(),
  );
  return inserted.length;
}

/** One page of the workspace's imports, newest first. */
export async function listImports(
  em: EntityManager,
  identity: Identity,
  page: { limit: number; cursor?: string },
): Promise<{ imports: ImportView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(em, FinanceImport, { workspace: identity.workspaceId }, page);
  return { imports: items.map(presentImport), nextCursor };
}

/** An import of the workspace. @throws `not_found` */
export async function getImport(em: EntityManager, identity: Identity, id: string): Promise<ImportView> {
  const record = await em.findOne(FinanceImport, { id, workspace: identity.workspaceId });
  if (!record) throw errors.notFound('Import');
  return presentImport(record);
}
