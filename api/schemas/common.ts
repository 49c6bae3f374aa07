import { z } from 'zod';

export const uuid = z.uuid();
export const idParams = z.object({ id: uuid });

// Dates a caller sends: real calendar dates in years 1970 through 9999, which PostgreSQL and JavaScript both
// hold and order alike (PostgreSQL has no year 0000 and no month 00; nothing here happened before 1970).
// Anything else is 400 `validation_error` (docs/api/limits.md).
const YEAR = /^(19[7-9]\d|[2-9]\d{3})-/;
const YEAR_MESSAGE = 'The year must be 1970 through 9999';

/** An RFC 3339 UTC timestamp (`2026-11-01T10:00:00Z`, optional fraction) in years 1970 through 9999. */
export const timestamp = z.iso.datetime().regex(YEAR, YEAR_MESSAGE);
/** A calendar day `YYYY-MM-DD` in years 1970 through 9999. */
export const day = z.iso.date().regex(YEAR, YEAR_MESSAGE);
