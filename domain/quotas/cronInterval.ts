import { errors } from '../errors';

/**
 * How often a cron expression may fire (docs/api/limits.md#schedules): the shortest time between two of
 * its fires over the next two years. The expression was checked already (flows' and saved tables' own
 * checks); this reads the same five fields, names and macros, so it never sees one it cannot read.
 */
const FIELDS: Array<{ min: number; max: number; names?: string[] }> = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] },
  { min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
];

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const DAY = 24 * 60;
const HORIZON_DAYS = 2 * 366;

function value(text: string, spec: (typeof FIELDS)[number]): number {
  const named = spec.names?.indexOf(text.toUpperCase()) ?? -1;
  if (named >= 0) return spec.names!.length === 12 ? named + 1 : named;
  return Number(text);
}

/** The values a field matches, and whether it is unrestricted (`*` with no step). */
function expand(field: string, spec: (typeof FIELDS)[number]): { values: Set<number>; any: boolean } {
  const values = new Set<number>();
  for (const part of field.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Math.max(1, Number(stepText));
    let from = spec.min;
    let to = spec.max;
    if (range !== '*') {
      const [a, b] = range.split('-');
      from = value(a, spec);
      to = b === undefined ? (stepText === undefined ? from : spec.max) : value(b, spec);
    }
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return { values, any: field === '*' };
}

/**
 * The fewest minutes between two consecutive fires of `expr` (UTC) in the next two years; Infinity when
 * it fires at most once there.
 */
export function cronMinInterval(expr: string, from = new Date()): number {
  const text = expr.trim();
  const fields = (MACROS[text] ?? text).split(/\s+/);
  if (fields.length !== 5) return Infinity;
  const [minutes, hours, dom, month, dow] = fields.map((f, i) => expand(f, FIELDS[i]));
  if (dow.values.has(7)) dow.values.add(0);
  const times: number[] = [];
  for (const h of [...hours.values].sort((a, b) => a - b)) {
    for (const m of [...minutes.values].sort((a, b) => a - b)) times.push(h * 60 + m);
  }
  if (times.length === 0) return Infinity;
  let shortest = Infinity;
  for (let i = 1; i < times.length; i++) shortest = Math.min(shortest, times[i] - times[i - 1]);
  // Between days: the last fire of one firing day to the first of the next.
  const start = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  let previousDay: number | null = null;
  for (let d = 0; d < HORIZON_DAYS; d++) {
    const day = new Date(start + d * DAY * 60_000);
    const domHit = dom.values.has(day.getUTCDate());
    const dowHit = dow.values.has(day.getUTCDay());
    // Standard cron: when both day fields are restricted, either one matching is enough.
    const dayHit = dom.any || dow.any ? domHit && dowHit : domHit || dowHit;
    if (!dayHit || !month.values.has(day.getUTCMonth() + 1)) continue;
    if (previousDay !== null) {
      shortest = Math.min(shortest, (d - previousDay) * DAY - times[times.length - 1] + times[0]);
    }
    previousDay = d;
  }
  return shortest;
}

/**
 * Refuses a cron that may fire more often than every `minMinutes` minutes.
 * @throws 400 `validation_error` at `path`
 */
export function checkCronInterval(expr: string, minMinutes: number, path: string): void {
  const interval = cronMinInterval(expr);
  if (interval < minMinutes) {
    throw errors.validation([
      {
        path,
        message: `A schedule may fire at most every ${minMinutes} minutes; this cron fires ${interval} minute${interval === 1 ? '' : 's'} apart`,
      },
    ]);
  }
}
