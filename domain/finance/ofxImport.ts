import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { errors } from '../errors';
import { parseDate } from './dates';
import { isCurrency, parseAmountMicros } from './money';
import { LINE_ELEMENT, NotOfxError, ofxToXml } from './ofxSgml';
import { clip, MAX_DESCRIPTION, type ParsedExport, type ParsedRow } from './parsedRow';

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => ['STMTTRN', 'STMTTRNRS', 'CCSTMTTRNRS', 'INVSTMTTRNRS', 'INVBANKTRAN'].includes(name),
});

/**
 * Reads an OFX/QFX bank or credit-card statement as banks write them: 1.x SGML, 2.x XML and the hybrids
 * between ({@link ofxToXml}), one or several accounts. A file that is not OFX, or holds no bank or card
 * statement, fails the import (400, nothing imported); a transaction with a bad date, amount or currency is
 * an error with the line of its `<STMTTRN>` and the others go on. Rows carry their statement's account.
 */
export function parseOfxExport(text: string): ParsedExport & { account: string | null } {
  const doc = parse(text);
  const statements = findStatements(doc.OFX as Node);
  if (statements.length === 0) {
    throw errors.validation([
      { path: 'fileId', message: 'The OFX file holds no bank, credit-card or investment cash statement' },
    ]);
  }
  const parsed: ParsedRow[] = [];
  const rowErrors: ParsedExport['errors'] = [];
  let account: string | null = null;
  let n = 0;
  for (const stmt of statements) {
    const from = (stmt.BANKACCTFROM ?? stmt.CCACCTFROM ?? stmt.INVACCTFROM) as Node | undefined;
    const own = typeof from?.ACCTID === 'string' && from.ACCTID !== '' ? from.ACCTID : null;
    account ??= own;
    const curdef = String(stmt.CURDEF ?? '').toUpperCase();
    for (const trn of transactionsOf(stmt)) {
      n++;
      const line = Number(trn[LINE_ELEMENT] ?? 0);
      const row = readTransaction(trn, curdef, line, own);
      if ('message' in row) rowErrors.push(row);
      else parsed.push(row);
    }
  }
  return { rows: n, parsed, errors: rowErrors, account };
}

function parse(text: string): Node {
  let xml: string;
  try {
    xml = ofxToXml(text);
  } catch (err) {
    if (err instanceof NotOfxError) throw notOfx();
    throw err;
  }
  if (XMLValidator.validate(xml) !== true) throw notOfx();
  const doc = parser.parse(xml) as Node;
  if (!doc.OFX || typeof doc.OFX !== 'object') throw notOfx();
  return doc;
}

function notOfx() {
  return errors.validation([{ path: 'fileId', message: 'The file is not an OFX/QFX statement' }]);
}

function findStatements(ofx: Node): Node[] {
  const out: Node[] = [];
  const bank = (ofx.BANKMSGSRSV1 as Node | undefined)?.STMTTRNRS as Node[] | undefined;
  const card = (ofx.CREDITCARDMSGSRSV1 as Node | undefined)?.CCSTMTTRNRS as Node[] | undefined;
  for (const rs of bank ?? []) if (rs.STMTRS && typeof rs.STMTRS === 'object') out.push(rs.STMTRS as Node);
  for (const rs of card ?? []) if (rs.CCSTMTRS && typeof rs.CCSTMTRS === 'object') out.push(rs.CCSTMTRS as Node);
  // an investment account's cash movements (deposits, cheques, fees) are bank transactions too
  const invest = (ofx.INVSTMTMSGSRSV1 as Node | undefined)?.INVSTMTTRNRS as Node[] | undefined;
  for (const rs of invest ?? []) if (rs.INVSTMTRS && typeof rs.INVSTMTRS === 'object') out.push(rs.INVSTMTRS as Node);
  return out;
}

/** A statement's transactions: a bank or card statement's list, or an investment statement's cash movements. */
function transactionsOf(stmt: Node): Node[] {
  const bank = (stmt.BANKTRANLIST as Node | undefined)?.STMTTRN;
  if (Array.isArray(bank)) return bank as Node[];
  const invest = (stmt.INVTRANLIST as Node | undefined)?.INVBANKTRAN;
  if (!Array.isArray(invest)) return [];
  return invest.flatMap((t) => ((t as Node)?.STMTTRN ?? []) as Node[]);
}

function readTransaction(
  trn: Node,
  curdef: string,
  line: number,
  account: string | null,
): ParsedRow | { line: number; message: string } {
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
    account,
  };
}
