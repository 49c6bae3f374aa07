import { csvTextCell } from '../shared/csv';
import type { AuditEntryView } from './presenters';

const COLUMNS = [
  'id',
  'at',
  'action',
  'resourceType',
  'resourceId',
  'actorType',
  'actorUserId',
  'actorKeyId',
  'ip',
  'userAgent',
  'requestId',
  'details',
  'prevHash',
  'hash',
] as const;

/** One cell of the audit export: always quoted, a would-be formula kept as text (domain/shared/csv.ts). */
export function csvCell(value: string | null): string {
  return csvTextCell(value);
}

function row(cells: Array<string | null>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The header line of the export. */
export function csvHeader(): string {
  return row([...COLUMNS]);
}

/** One entry as a CSV line (RFC 4180, CRLF), `details` as its JSON. */
export function csvLine(e: AuditEntryView): string {
  const actor = e.actor;
  return row([
    e.id,
    e.at,
    e.action,
    e.resourceType,
    e.resourceId,
    actor.type,
    actor.type === 'user' ? actor.userId : null,
    actor.type === 'api_key' ? actor.keyId : null,
    e.ip,
    e.userAgent,
    e.requestId,
    JSON.stringify(e.details),
    e.prevHash,
    e.hash,
  ]);
}

/** The export of `entries` as CSV text, produced line by line. */
export async function* auditCsv(entries: AsyncIterable<AuditEntryView>): AsyncGenerator<string> {
  yield csvHeader();
  for await (const entry of entries) yield csvLine(entry);
}
