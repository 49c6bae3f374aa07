import { raw, type EntityName, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { errors } from './errors';

/** Every list pages: `?limit=` 1..100 (default 20) and an opaque `?cursor=` (docs/api/limits.md). */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});

export interface Cursor {
  createdAt: Date;
  id: string;
}

/** Keyset cursors point at the last row served: (createdAt, id), newest first. */
export function encodeCursor(row: Cursor): string {
  return Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Decodes a cursor. Only what encodeCursor makes passes: a two-element array of a canonical ISO
 * timestamp in years 1970..9999 and a UUID, so nothing malformed reaches the query (where a bad id or
 * date would fail in PostgreSQL as a 500).
 * @throws {ApiError} 400 `validation_error` (path `cursor`) for anything else
 */
export function decodeCursor(cursor: string | undefined): Cursor | undefined {
  if (!cursor) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (Array.isArray(parsed) && parsed.length === 2) {
    const [at, id] = parsed as unknown[];
    const createdAt = typeof at === 'string' ? new Date(at) : new Date(NaN);
    const year = createdAt.getUTCFullYear();
    const canonical = !Number.isNaN(year) && year >= 1970 && year <= 9999 && createdAt.toISOString() === at;
    if (canonical && typeof id === 'string' && UUID.test(id)) return { createdAt, id };
  }
  throw errors.validation([{ path: 'cursor', message: 'Invalid cursor' }]);
}

/**
 * The ORM filter for rows strictly after the cursor in (createdAt desc, id desc) order. A row-value
 * comparison, because PostgreSQL turns it into a bound of the (…, created_at desc, id desc) index and
 * starts the scan at the cursor; the equivalent `a < x or (a = x and b < y)` is only a filter, which
 * reads every newer row first, so a page deep in a large list cost as much as its offset.
 */
function afterCursor(cursor: Cursor | undefined): Record<string, unknown> {
  if (!cursor) return {};
  return { [raw((alias) => `(${alias}.created_at, ${alias}.id) < (?, ?)`, [cursor.createdAt, cursor.id])]: [] };
}

/**
 * One page of a list, newest first, by keyset: fetches `limit + 1` rows after the cursor so the
 * next cursor is known without a count. Every list route of the API goes through here.
 */
export async function findPage<T extends Cursor>(
  em: EntityManager,
  entity: EntityName<T>,
  where: Record<string, unknown>,
  query: { limit: number; cursor?: string },
): Promise<{ items: T[]; nextCursor: string | null }> {
  const filter = { ...where, ...afterCursor(decodeCursor(query.cursor)) } as FilterQuery<T>;
  const rows = (await em.find(entity, filter, {
    orderBy: { createdAt: 'desc', id: 'desc' } as never,
    limit: query.limit + 1,
  })) as T[];
  const items = rows.slice(0, query.limit);
  return { items, nextCursor: rows.length > query.limit ? encodeCursor(items[items.length - 1]) : null };
}
