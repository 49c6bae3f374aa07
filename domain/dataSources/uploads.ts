import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { DataSource } from '../../db/entities/DataSource';
import { DataSourceSheet } from '../../db/entities/DataSourceSheet';
import type { Storage } from '../../platform/storage/storage';
import { guardZip, ZipRefused, type GuardedZip, type ZipLimits } from '../../platform/zipGuard';
import { errors } from '../errors';
import { findDataSource } from './dataSources';
import { parseCsv, parseXlsx } from './sheetParsing';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The file source an upload goes to. Checked before a byte is read.
 * @throws {ApiError} 404 for an unknown source, 400 for a database source
 */
export async function uploadTarget(em: EntityManager, workspaceId: string, id: string): Promise<DataSource> {
  const source = await findDataSource(em, workspaceId, id);
  if (source.type !== 'file') {
    throw errors.validation([
      { path: 'id', message: `A ${source.type} data source takes no files; create a file source` },
    ]);
  }
  return source;
}

/** `csv` or `xlsx`, from the name's extension or else the media type. @throws 400 for anything else */
function formatOf(filename: string, mime: string): 'csv' | 'xlsx' {
  const ext = /\.([^.]+)$/.exec(filename)?.[1]?.toLowerCase();
  if (ext === 'csv' || (!ext && /^text\/csv\b/i.test(mime))) return 'csv';
  if (ext === 'xlsx' || (!ext && mime.startsWith(XLSX_MIME))) return 'xlsx';
  throw errors.validation([{ path: 'file', message: 'Upload a CSV (.csv) or XLSX (.xlsx) file' }]);
}

/** The upload's bytes as the zip guard passes them. @throws 400 at `file` for an archive it refuses */
async function guardedUpload(input: Readable, limits: ZipLimits): Promise<GuardedZip> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(chunk as Buffer);
  try {
    return await guardZip(Buffer.concat(chunks), limits);
  } catch (err) {
    if (err instanceof ZipRefused) throw errors.validation([{ path: 'file', message: err.message }]);
    throw err;
  }
}

/**
 * Parses an upload already in storage under `key` into the source's sheets (a CSV file is one sheet
 * named after the file; an XLSX workbook one per worksheet, `<file>.<worksheet>`), replacing sheets of
 * the same names, and deletes the bytes: the sheets are what is kept (docs/api/data-sources.md).
 * An XLSX file passes the zip guard first (`zipLimits`, docs/api/limits.md).
 * @throws {ApiError} 400 for a file that is not CSV/XLSX, cannot be parsed or inflates past the limits
 */
export async function storeSheets(
  em: EntityManager,
  storage: Storage,
  source: DataSource,
  zipLimits: ZipLimits,
  upload: { key: string; filename: string; mime: string },
): Promise<{ objects: Array<{ name: string; kind: 'sheet'; rows: number }> }> {
  let parsed;
  try {
    const format = formatOf(upload.filename, upload.mime);
    const base = upload.filename.replace(/\.[^.]+$/, '') || upload.filename;
    const input = await storage.get(upload.key);
    parsed =
      format === 'csv' ? await parseCsv(base, input) : await parseXlsx(base, await guardedUpload(input, zipLimits));
  } finally {
    await storage.delete(upload.key);
  }
  await em.transactional(async (tx) => {
    await tx.nativeDelete(DataSourceSheet, { dataSourceId: source.id, name: { $in: parsed.map((s) => s.name) } });
    for (const s of parsed) tx.persist(new DataSourceSheet(source.id, s.name, upload.filename, s.columns, s.rows));
  });
  return { objects: parsed.map((s) => ({ name: s.name, kind: 'sheet' as const, rows: s.rows.length })) };
}
