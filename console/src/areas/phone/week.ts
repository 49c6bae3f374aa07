/** Days as `YYYY-MM-DD` strings, counted in UTC so no local clock change shifts them. */
export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

const parse = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return Date.UTC(y, m - 1, d);
};
const format = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const addDays = (day: string, n: number) => format(parse(day) + n * 86_400_000);

/** The Monday of the week `day` is in. */
export function mondayOf(day: string): string {
  const weekday = (new Date(parse(day)).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** Today in the browser's own calendar. */
export function today(): string {
  const d = new Date();
  return format(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()));
}

export const isDay = (s: string | null): s is string =>
  s !== null && s.length === 10 && !Number.isNaN(parse(s)) && format(parse(s)) === s;

/** The day (`YYYY-MM-DD`) and the wall-clock time (`HH:MM`) of an instant in `timeZone`. */
export function wallClock(iso: string, timeZone: string): { day: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return { day: `${get('year')}-${get('month')}-${get('day')}`, time: `${get('hour')}:${get('minute')}` };
}

/** A day's heading: "Mon 7 Jan". */
export const dayTitle = (day: string) =>
  new Date(parse(day)).toLocaleDateString('en-GB', {
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  });
