/**
 * A timestamp column as SQL that reads it back as `Date#toISOString` writes it (times are stored to the
 * millisecond), for views built without an entity (statusWrites.ts, stepWrites.ts).
 */
export const isoSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
