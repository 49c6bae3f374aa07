/**
 * CSV cells that a spreadsheet opens as text (RFC 4180), shared by every CSV export (the audit log's, the
 * finance transactions'), so each neutralises formulas the same way.
 */

/** A spreadsheet reads a cell that starts with one of these as a formula (and tab or CR as a way to hide one). */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);

/** Text a spreadsheet would take for a formula, with a leading `'` so it stays text; anything else as it is. */
export function formulaSafe(text: string): string {
  return text.length > 0 && FORMULA_START.has(text[0]) ? `'${text}` : text;
}

/**
 * One CSV cell of text: neutralised by {@link formulaSafe}, then quoted with its quotes doubled, so commas,
 * quotes and line breaks stay inside it. `quote: 'needed'` quotes only a cell that holds one of those.
 */
export function csvTextCell(value: string | null, quote: 'always' | 'needed' = 'always'): string {
  const safe = formulaSafe(value ?? '');
  if (quote === 'needed' && !/[",\r\n]/.test(safe)) return safe;
  return `"${safe.replaceAll('"', '""')}"`;
}
