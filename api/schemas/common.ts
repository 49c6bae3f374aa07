import { z } from 'zod';

export const uuid = z.uuid();
export const idParams = z.object({ id: uuid });

// Dates a caller sends: real calendar dates in years 1970 through 9999, which PostgreSQL and JavaScript both
// hold and order alike (PostgreSQL has no year 0000 and no month 00; nothing here happened before 1970).
// Anything else is 400 `validation_error` (docs/api/limits.md). One pattern says it all, so that the
// document states exactly this and a generator can produce such dates directly.
const YEAR = '(?:19[7-9]\\d|[2-9]\\d{3})';
// 29 February of the leap years among them: divisible by 4 and not by 100, or by 400.
const LEAP_YEAR = '(?:197[26]|198[048]|199[26]|[2-9]\\d(?:0[48]|[2468][048]|[13579][26])|(?:[2468][048]|[3579][26])00)';
const DATE =
  `(?:${YEAR}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))` +
  `|${LEAP_YEAR}-02-29)`;
const DAY = new RegExp(`^${DATE}$`);
const TIMESTAMP = new RegExp(`^${DATE}T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?Z$`);

/** An RFC 3339 UTC timestamp (`2026-11-01T10:00:00Z`, optional fraction) in years 1970 through 9999. */
export const timestamp = z
  .string()
  .regex(TIMESTAMP, 'Expected an RFC 3339 UTC timestamp (2026-11-01T10:00:00Z) in years 1970 through 9999');
/** A calendar day `YYYY-MM-DD` in years 1970 through 9999. */
export const day = z.string().regex(DAY, 'Expected a date YYYY-MM-DD in years 1970 through 9999');
