import { WEEK_DAYS, type WeeklyHours } from '../../db/entities/PhoneCalendar';

/** Every timezone a calendar may name: the IANA names this runtime knows, and `UTC`. */
export const TIMEZONES: string[] = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];

/** Longest range of days one read of slots covers (docs/api/phone.md#booking-calendar). */
export const MAX_RANGE_DAYS = 62;

export interface Slot {
  start: Date;
  end: Date;
}

export interface CalendarRules {
  timezone: string;
  weeklyHours: WeeklyHours[];
  slotMinutes: number;
}

const DAY_MS = 24 * 3600 * 1000;

/** Minutes `timezone` is ahead of UTC at the instant `at`. */
function offsetMinutes(timezone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/** The instant of a wall-clock time (`dayMs` is the day's midnight as if UTC) in `timezone`. */
function zonedInstant(timezone: string, dayMs: number, minuteOfDay: number): Date {
  const wall = dayMs + minuteOfDay * 60_000;
  // twice: the offset at the first guess may differ from the one at the answer across a DST change
  let t = wall - offsetMinutes(timezone, new Date(wall)) * 60_000;
  t = wall - offsetMinutes(timezone, new Date(t)) * 60_000;
  return new Date(t);
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The calendar day (`YYYY-MM-DD`) an instant falls on in `timezone`. */
export function localDay(timezone: string, at: Date): string {
  return new Date(at.getTime() + offsetMinutes(timezone, at) * 60_000).toISOString().slice(0, 10);
}

/**
 * Every slot of the weekly hours on the days `from` through `to` (calendar days in the calendar's
 * timezone, both included), in order, each `slotMinutes` long and ending within its opening hours.
 */
export function slotsBetween(rules: CalendarRules, from: string, to: string): Slot[] {
  const out = new Map<number, Slot>();
  for (let day = Date.parse(`${from}T00:00:00Z`); day <= Date.parse(`${to}T00:00:00Z`); day += DAY_MS) {
    const weekDay = WEEK_DAYS[(new Date(day).getUTCDay() + 6) % 7];
    for (const hours of rules.weeklyHours.filter((h) => h.day === weekDay)) {
      for (let m = minutes(hours.start); m + rules.slotMinutes <= minutes(hours.end); m += rules.slotMinutes) {
        const start = zonedInstant(rules.timezone, day, m);
        out.set(start.getTime(), { start, end: new Date(start.getTime() + rules.slotMinutes * 60_000) });
      }
    }
  }
  return [...out.values()].sort((a, b) => a.start.getTime() - b.start.getTime());
}

/** The slot that starts exactly at `start`, if the weekly hours have one. */
export function slotAt(rules: CalendarRules, start: Date): Slot | undefined {
  const day = localDay(rules.timezone, start);
  const prev = new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
  return slotsBetween(rules, prev, day).find((s) => s.start.getTime() === start.getTime());
}

/** Days from `from` to `to`, both included; negative when `to` is first. */
export function dayCount(from: string, to: string): number {
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
}

/** Today and the six days after it in `timezone`: the range a read without one covers. */
export function defaultRange(timezone: string, now = new Date()): { from: string; to: string } {
  const from = localDay(timezone, now);
  return { from, to: new Date(Date.parse(`${from}T00:00:00Z`) + 6 * DAY_MS).toISOString().slice(0, 10) };
}

/** From the first moment of day `from` to the first moment after day `to`, in `timezone`. */
export function dayBounds(timezone: string, from: string, to: string): { start: Date; end: Date } {
  return {
    start: zonedInstant(timezone, Date.parse(`${from}T00:00:00Z`), 0),
    end: zonedInstant(timezone, Date.parse(`${to}T00:00:00Z`) + DAY_MS, 0),
  };
}
