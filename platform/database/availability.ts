import { ConnectionException } from '@mikro-orm/core';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE']);
// PostgreSQL SQLSTATE classes 08 (connection exception) and 57P (operator intervention: shutdown).
const PG_UNAVAILABLE = /^(08|57P)/;
// The pg driver's, the pool's and knex's own words for a connection that is gone (they carry no
// SQLSTATE or errno); knex's "Transaction query already complete" is a transaction whose connection died.
const PG_GONE =
  /Timeout acquiring a connection|Connection terminated|connect ECONNREFUSED|the database system is|not queryable|Transaction query already complete/i;

/**
 * True when `err` (or its cause) means PostgreSQL cannot be reached right now, as opposed to a
 * statement that failed. The API answers these with 503 `unavailable` (docs/api/errors.md); activities
 * wait them out instead of spending their attempts (see activities/databaseWait.ts).
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  if (err instanceof ConnectionException) return true;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || PG_UNAVAILABLE.test(e.code))) return true;
  if (typeof e.message === 'string' && PG_GONE.test(e.message)) return true;
  return e.cause !== err && isDatabaseUnavailable(e.cause, depth + 1);
}
