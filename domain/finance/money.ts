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
