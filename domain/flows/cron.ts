/**
 * Checks a schedule trigger's cron expression before Temporal sees it (docs/api/flows.md#schedule):
 * five fields (minute hour day-of-month month day-of-week), each `*`, a number, a range, a list, a step
 * (`*\/15`, `1-30/5`), month and weekday names; or one of `@yearly @annually @monthly @weekly @daily
 * @midnight @hourly`. Returns the problem, or null when it is valid.
 */
const FIELDS: Array<{ name: string; min: number; max: number; names?: string[] }> = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
  },
  { name: 'day of week', min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
];
const MACROS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

export function cronProblem(expr: string): string | null {
  const text = expr.trim();
  if (text.startsWith('@')) return MACROS.has(text) ? null : `Unknown cron macro ${text}`;
  const fields = text.split(/\s+/);
  if (fields.length !== 5) return 'A cron expression has five fields: minute hour day-of-month month day-of-week';
  for (const [i, field] of fields.entries()) {
    const spec = FIELDS[i];
    for (const part of field.split(',')) {
      if (!validPart(part, spec)) return `Invalid ${spec.name} field "${field}"`;
    }
  }
  return null;
}

function value(text: string, spec: (typeof FIELDS)[number]): number | null {
  if (/^\d{1,2}$/.test(text)) {
    const n = Number(text);
    return n >= spec.min && n <= spec.max ? n : null;
  }
  const named = spec.names?.indexOf(text.toUpperCase()) ?? -1;
  if (named < 0) return null;
  return spec.names!.length === 12 ? named + 1 : named;
}

function validPart(part: string, spec: (typeof FIELDS)[number]): boolean {
  const [range, step, ...extra] = part.split('/');
  if (extra.length) return false;
  if (step !== undefined && (!/^\d{1,2}$/.test(step) || Number(step) < 1 || Number(step) > spec.max)) return false;
  if (range === '*') return true;
  const [from, to, ...more] = range.split('-');
  if (more.length) return false;
  const a = value(from, spec);
  if (a === null) return false;
  if (to === undefined) return true;
  const b = value(to, spec);
  return b !== null && a <= b;
}

/** Whether `tz` is an IANA time zone this runtime knows (Temporal uses the same database). */
export function validTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
