import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { errors } from '../errors';
import { parseDate } from './dates';
import { isCurrency, parseAmountMicros } from './money';
import { clip, MAX_DESCRIPTION, type ParsedExport, type ParsedRow } from './parsedRow';

type Node = Record<string, unknown>;

/**
 * OFX 1.x is SGML: leaf elements (`<TRNAMT>-42.17`) have no end tag, and banks leave `&` unescaped. This
 * closes every leaf and escapes stray ampersands, so one maintained XML parser (fast-xml-parser) reads
 * both 1.x and 2.x (which is XML already). Returns the document from `<OFX>` on.
 */
export function sgmlToXml(text: string): string {
  const start = text.indexOf('<OFX>');
  const body = start >= 0 ? text.slice(start) : text;
  const tokens = splitTags(body);
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const open = /^<([A-Za-z0-9._]+)>$/.exec(token);
    if (!open) {
      out.push(token.startsWith('<') ? token : escapeText(token));
      continue;
    }
    const text = tokens[i + 1] ?? '';
    const next = tokens[i + 2] ?? '';
    out.push(token);
    if (text.trim() !== '' && next !== `</${open[1]}>`) {
      out.push(escapeText(text.trim()), `</${open[1]}>`);
      i++;
    }
  }
  return out.join('');
}

/**
 * The text split around its tags, as `split(/(<[^>]*>)/)` would (text, tag, text, …, text): a tag runs from a
 * `<` to the next `>`. A scan, since that pattern restarts at every `<` of a long run with no `>` after it.
 */
function splitTags(text: string): string[] {
  const tokens: string[] = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf('<', from);
    const close = open < 0 ? -1 : text.indexOf('>', open + 1);
    if (close < 0) break;
    tokens.push(text.slice(from, open), text.slice(open, close + 1));
    from = close + 1;
  }
  tokens.push(text.slice(from));
  return tokens;
}

function escapeText(text: string): string {
  return text.replace(/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/g, '&amp;');
}

/** The document to hand the XML parser: 2.x as it is (from `<OFX>`), 1.x through {@link sgmlToXml}. */
function toXml(text: string): string {
  const isXml = /^\s*(\uFEFF)?<\?xml/.test(text) || /<\?OFX\b/.test(text);
  if (!isXml) return sgmlToXml(text);
  const start = text.indexOf('<OFX>');
  return start >= 0 ? text.slice(start) : text;
}

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => ['STMTTRN', 'STMTTRNRS', 'CCSTMTTRNRS'].includes(name),
});

/**
 * Reads an OFX/QFX bank or credit-card statement (1.x SGML or 2.x XML). A file that is not OFX fails the
 * import (400, nothing imported); a transaction with a bad date, amount or currency is an error with the line
 * of its `<STMTTRN>` and the others go on.
 */
export function parseOfxExport(text: string): ParsedExport & { account: string | null } {
  const xml = toXml(text);
  if (!xml.includes('<OFX>') || XMLValidator.validate(xml) !== true) {
    throw errors.validation([{ path: 'fileId', message: 'The file is not an OFX/QFX statement' }]);
  }
  const doc = parser.parse(xml) as Node;
  const statements = findStatements(doc.OFX as Node);
  const lines = transactionLines(text);
  const parsed: ParsedRow[] = [];
  const rowErrors: ParsedExport['errors'] = [];
  let account: string | null = null;
  let n = 0;
  for (const stmt of statements) {
    const from = (stmt.BANKACCTFROM ?? stmt.CCACCTFROM) as Node | undefined;
    account ??= typeof from?.ACCTID === 'string' ? from.ACCTID : null;
    const curdef = String(stmt.CURDEF ?? '').toUpperCase();
    const list = ((stmt.BANKTRANLIST as Node | undefined)?.STMTTRN ?? []) as Node[];
    for (const trn of list) {
      const line = lines[n++] ?? 0;
      const row = readTransaction(trn, curdef, line);
      if ('message' in row) rowErrors.push(row);
      else parsed.push(row);
    }
  }
  return { rows: n, parsed, errors: rowErrors, account };
}

function findStatements(ofx: Node | undefined): Node[] {
  if (!ofx || typeof ofx !== 'object') return [];
  const out: Node[] = [];
  const bank = (ofx.BANKMSGSRSV1 as Node | undefined)?.STMTTRNRS as Node[] | undefined;
  const card = (ofx.CREDITCARDMSGSRSV1 as Node | undefined)?.CCSTMTTRNRS as Node[] | undefined;
  for (const rs of bank ?? []) if (rs.STMTRS) out.push(rs.STMTRS as Node);
  for (const rs of card ?? []) if (rs.CCSTMTRS) out.push(rs.CCSTMTRS as Node);
  return out;
}

/** The 1-based line of each `<STMTTRN>` in the original text, in document order. */
function transactionLines(text: string): number[] {
  const lines: number[] = [];
  const re = /<STMTTRN>/g;
  let line = 1;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    for (let i = last; i < m.index; i++) if (text.charCodeAt(i) === 10) line++;
    last = m.index;
    lines.push(line);
  }
  return lines;
}

function readTransaction(trn: Node, curdef: string, line: number): ParsedRow | { line: number; message: string } {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const date = parseDate(str(trn.DTPOSTED), 'YYYYMMDD');
  if (!date) return { line, message: `Invalid DTPOSTED "${str(trn.DTPOSTED)}"` };
  const amountText = str(trn.TRNAMT);
  const amount = parseAmountMicros(amountText, amountText.includes(',') && !amountText.includes('.') ? ',' : '.');
  if (amount === null) return { line, message: `Invalid TRNAMT "${amountText}"` };
  const own = (trn.CURRENCY as Node | undefined)?.CURSYM ?? (trn.ORIGCURRENCY as Node | undefined)?.CURSYM;
  const currency = (str(own) || curdef).toUpperCase();
  if (!isCurrency(currency)) return { line, message: `Unknown currency "${currency}"` };
  const name = str(trn.NAME) || str((trn.PAYEE as Node | undefined)?.NAME);
  const memo = str(trn.MEMO);
  const description = clip([name, memo].filter(Boolean).join(' ') || str(trn.TRNTYPE), MAX_DESCRIPTION);
  if (!description) return { line, message: 'Empty description' };
  return {
    line,
    date,
    description,
    amountMicros: amount,
    currency,
    counterparty: clip(name, 200) || null,
    bankId: clip(str(trn.FITID), 255) || null,
  };
}
