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

/** Decodes a cursor; a malformed one is the caller's 400 `validation_error`. */
export function decodeCursor(cursor: string | undefined): Cursor | undefined {
  if (!cursor) return undefined;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const createdAt = new Date(at);
    if (typeof id !== 'string' || Number.isNaN(createdAt.getTime())) throw new Error('bad cursor');
    return { createdAt, id };
  } catch {
    throw errors.validation([{ path: 'cursor', message: 'Invalid cursor' }]);
  }
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
