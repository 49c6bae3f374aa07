/**
 * Exact money for finance (docs/api/finance.md): amounts are signed integer micro-units of their currency,
 * parsed from text digit by digit (never through a float), summed in SQL on integers.
 */

const AMOUNT = /^([+-]?)(\d+)(?:\.(\d{0,6}))?$/;

/**
 * Parses a bank's amount text into micro-units. `decimal` is the decimal mark; the other mark, spaces and a
 * leading currency-free sign are allowed as the bank writes them (`1.234,56`, `-1 234.56`, `(12.00)`).
 * Returns null for anything that is not an amount with at most 6 decimals.
 */
export function parseAmountMicros(text: string, decimal: '.' | ',' = '.'): number | null {
  let s = text.replace(/[\s\u00a0\u202f']/g, '');
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  if (s.endsWith('-') && !s.startsWith('-')) s = `-${s.slice(0, -1)}`;
  const thousands = decimal === '.' ? ',' : '.';
  s = s.split(thousands).join('');
  if (decimal === ',') s = s.replace(',', '.');
  const m = AMOUNT.exec(s);
  if (!m) return null;
  const micros = Number(m[2]) * 1_000_000 + Number((m[3] ?? '').padEnd(6, '0'));
  if (!Number.isSafeInteger(micros)) return null;
  const signed = (m[1] === '-') !== negative ? -micros : micros;
  return signed === 0 ? 0 : signed;
}

/** Symbols that name one currency; `$`, `¥` and `kr` name several and say nothing on their own. */
const SYMBOLS: Record<string, string> = {
  '€': 'EUR',
  '£': 'GBP',
  '₹': 'INR',
  '₩': 'KRW',
  '₪': 'ILS',
  '₺': 'TRY',
  '₽': 'RUB',
};
/** Letters written before `$` that say whose dollar it is (`US$`, `CA$`, `A$`, …). */
const DOLLARS: Record<string, string> = {
  US: 'USD',
  CA: 'CAD',
  C: 'CAD',
  AU: 'AUD',
  A: 'AUD',
  NZ: 'NZD',
  HK: 'HKD',
  S: 'SGD',
  SG: 'SGD',
  MX: 'MXN',
};

/**
 * An amount as banks write it in their CSV exports (docs/api/finance.md#amounts): {@link parseAmountMicros}'s
 * forms plus a currency symbol or ISO code before or after the number, or between its sign and digits
 * (`$103.00`, `-$5.00`, `($12.00)`, `1.234,56 €`, `USD 12.50`, `US$ 9`). Answers the micro-units and the
 * currency the text names, if it names one; null when the text is not an amount.
 */
export function parseBankAmount(
  text: string,
  decimal: '.' | ',' = '.',
): { micros: number; currency: string | null } | null {
  let currency: string | null = null;
  let letters = '';
  let symbol = '';
  let rest = '';
  for (const ch of text) {
    if (/\p{Sc}/u.test(ch)) symbol += ch;
    else if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z')) letters += ch;
    else rest += ch;
  }
  if (symbol.length > 1) return null;
  const upper = letters.toUpperCase();
  if (symbol === '$' && upper in DOLLARS) currency = DOLLARS[upper];
  else if (letters.length === 3 && isCurrency(upper)) currency = upper;
  else if (letters !== '') return null;
  if (symbol in SYMBOLS) {
    if (currency && currency !== SYMBOLS[symbol]) return null;
    currency = SYMBOLS[symbol];
  }
  const micros = parseAmountMicros(rest, decimal);
  return micros === null ? null : { micros, currency };
}

/** USD-style JSON number of micro-units, 6 decimals (the contract's money form). */
export function microsToAmount(micros: number | bigint | string): number {
  const n = typeof micros === 'bigint' ? micros : BigInt(micros);
  const whole = n / 1_000_000n;
  const frac = n % 1_000_000n;
  return Number(whole) + Number(frac) / 1_000_000;
}

/** A JSON amount (at most 6 decimals) to micro-units, exactly: through its decimal text, not a product. */
export function amountToMicros(amount: number): number {
  const micros = parseAmountMicros(amount.toFixed(6));
  if (micros === null) throw new RangeError(`Not an amount: ${amount}`);
  return micros;
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** Whether `code` is an ISO 4217 currency code (the runtime's list). */
export function isCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && CURRENCIES.has(code);
}

/** The number of minor-unit digits of a currency (2 for USD and EUR, 0 for JPY, 3 for BHD). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * A transaction's money as the API shows it (docs/api/finance.md#money): `amount`, the exact signed decimal
 * text in its own currency with at least the currency's minor digits (`"-12.50"`, `"1500"` in JPY, more
 * digits only when the bank gave more: `"-1778.3952"`), and `amountMinor`, the same in integer minor units
 * (`-1250`), rounded half away from zero when the bank gave finer digits than the currency has.
 */
export function presentMoney(
  micros: number | bigint | string,
  currency: string,
): { amount: string; amountMinor: number } {
  const n = typeof micros === 'bigint' ? micros : BigInt(micros);
  const digits = minorDigits(currency);
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const whole = abs / 1_000_000n;
  let frac = String(abs % 1_000_000n).padStart(6, '0');
  while (frac.length > digits && frac.endsWith('0')) frac = frac.slice(0, -1);
  const text = `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
  const unit = 10n ** BigInt(6 - digits);
  const minor = (abs + unit / 2n) / unit;
  return { amount: text, amountMinor: Number(negative ? -minor : minor) };
}
