/** The date formats a CSV mapping may name (docs/api/finance.md); ISO `YYYY-MM-DD` is the default. */
export const DATE_FORMATS = [
  'YYYY-MM-DD',
  'DD.MM.YYYY',
  'DD/MM/YYYY',
  'MM/DD/YYYY',
  'DD-MM-YYYY',
  'YYYY/MM/DD',
  'YYYYMMDD',
  'MM/DD/YY',
  'DD/MM/YY',
  'DD.MM.YY',
] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

const PATTERNS: Record<DateFormat, { re: RegExp; order: ['y' | 'm' | 'd', 'y' | 'm' | 'd', 'y' | 'm' | 'd'] }> = {
  'YYYY-MM-DD': { re: /^(\d{4})-(\d{1,2})-(\d{1,2})$/, order: ['y', 'm', 'd'] },
  'DD.MM.YYYY': { re: /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/, order: ['d', 'm', 'y'] },
  'DD/MM/YYYY': { re: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, order: ['d', 'm', 'y'] },
  'MM/DD/YYYY': { re: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, order: ['m', 'd', 'y'] },
  'DD-MM-YYYY': { re: /^(\d{1,2})-(\d{1,2})-(\d{4})$/, order: ['d', 'm', 'y'] },
  'YYYY/MM/DD': { re: /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/, order: ['y', 'm', 'd'] },
  YYYYMMDD: { re: /^(\d{4})(\d{2})(\d{2})/, order: ['y', 'm', 'd'] },
  'MM/DD/YY': { re: /^(\d{1,2})\/(\d{1,2})\/(\d{2})$/, order: ['m', 'd', 'y'] },
  'DD/MM/YY': { re: /^(\d{1,2})\/(\d{1,2})\/(\d{2})$/, order: ['d', 'm', 'y'] },
  'DD.MM.YY': { re: /^(\d{1,2})\.(\d{1,2})\.(\d{2})$/, order: ['d', 'm', 'y'] },
};

/** A calendar date as `YYYY-MM-DD`, or null when the parts are not a real date. */
export function isoDate(y: number, m: number, d: number): string | null {
  if (y < 1900 || y > 2999 || m < 1 || m > 12 || d < 1) return null;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > days) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Parses `text` in `format` (an OFX date is `YYYYMMDD` followed by an optional time). Null when it is not one. */
export function parseDate(text: string, format: DateFormat = 'YYYY-MM-DD'): string | null {
  const { re, order } = PATTERNS[format];
  const m = re.exec(text.trim());
  if (!m) return null;
  const parts: Record<string, number> = {};
  order.forEach((k, i) => (parts[k] = Number(m[i + 1])));
  // a two-digit year is of this century, as banks that write them mean
  const year = m[order.indexOf('y') + 1].length === 2 ? 2000 + parts.y : parts.y;
  return isoDate(year, parts.m, parts.d);
}
