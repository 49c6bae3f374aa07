import type { Middleware } from 'koa';
import type { AppState } from '../context';

/** A route on its way out (docs/versioning.md); deprecating a route is this one field on its declaration. */
export interface Deprecation {
  /** The day it was deprecated, `YYYY-MM-DD` (UTC). */
  since: string;
  /** The day it stops answering, `YYYY-MM-DD` (UTC); at least {@link MIN_NOTICE_DAYS} after `since`. */
  sunset: string;
  /** Where its replacement lives (a path under the new prefix, or a docs page). */
  successor?: string;
}

/** How long a deprecated route keeps answering, announced, before its sunset. */
export const MIN_NOTICE_DAYS = 90;

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function day(value: string, field: string, route: string): number {
  const at = DATE.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(at)) throw new Error(`${route}: deprecated.${field} must be a YYYY-MM-DD date, not ${value}`);
  return at;
}

/**
 * The headers every answer of a deprecated route carries, whatever its status: `Deprecation` as a
 * structured-field date (`@<unix seconds>`), `Sunset` as an HTTP date, and a `successor-version` link.
 * Throws at start-up when the declaration gives less than the promised notice, so a route can never be
 * announced for a shorter time than docs/versioning.md says.
 */
export function deprecationHeaders(d: Deprecation, route: string): Middleware<AppState> {
  const since = day(d.since, 'since', route);
  const sunset = day(d.sunset, 'sunset', route);
  if (sunset - since < MIN_NOTICE_DAYS * DAY_MS) {
    throw new Error(`${route}: a deprecated route answers for at least ${MIN_NOTICE_DAYS} days before its sunset`);
  }
  const headers: Record<string, string> = {
    Deprecation: `@${Math.floor(since / 1000)}`,
    Sunset: new Date(sunset).toUTCString(),
    ...(d.successor ? { Link: `<${d.successor}>; rel="successor-version"` } : {}),
  };
  // Set before anything can fail: the error middleware keeps headers already set, so a 4xx says it too.
  return (ctx, next) => {
    ctx.set(headers);
    return next();
  };
}
