import { raw, type EntityName, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { errors } from '../errors';

/**
 * A cursor is `<createdAt in epoch milliseconds>_<id>` of the last row served. Every string of this shape
 * names a position (the list simply continues after it), so the document's pattern is exactly what is
 * accepted; at most 14 digits keeps the instant in years 1970 through 5138, which PostgreSQL and
 * JavaScript both hold and order alike.
 */
const CURSOR = /^(0|[1-9][0-9]{0,13})_([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

/** Every list pages: `?limit=` 1..100 (default 20) and an opaque `?cursor=` (docs/api/limits.md). */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().regex(CURSOR, 'Invalid cursor').optional().describe('The `nextCursor` of the previous page'),
});

export interface Cursor {
  createdAt: Date;
  id: string;
}

/** Keyset cursors point at the last row served: (createdAt, id), newest first. */
export function encodeCursor(row: Cursor): string {
  return `${row.createdAt.getTime()}_${row.id}`;
}

/**
 * Decodes a cursor. Only the shape encodeCursor makes passes, so nothing malformed reaches the query
 * (where a bad id or date would fail in PostgreSQL as a 500).
 * @throws {ApiError} 400 `validation_error` (path `cursor`) for anything else
 */
export function decodeCursor(cursor: string | undefined): Cursor | undefined {
  if (!cursor) return undefined;
  const match = CURSOR.exec(cursor);
  if (!match) throw errors.validation([{ path: 'cursor', message: 'Invalid cursor' }]);
  return { createdAt: new Date(Number(match[1])), id: match[2] };
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

/**
 * Lists kept in a position order of their own (a run's steps, by index) page by that position: the cursor
 * is `at_<position>` of the last row served. Every string of this shape is a valid position (under 10⁹),
 * so the document's pattern says exactly what the service accepts.
 */
const POSITION_CURSOR = /^at_(0|[1-9][0-9]{0,8})$/;

/** The `?cursor=` of a list paged by position. */
export const positionCursor = z
  .string()
  .regex(POSITION_CURSOR, 'Invalid cursor')
  .optional()
  .describe('The `nextCursor` of the previous page');

export function encodePositionCursor(position: number): string {
  return `at_${position}`;
}

/**
 * Decodes encodePositionCursor's output.
 * @throws {ApiError} 400 `validation_error` (path `cursor`) for anything else
 */
export function decodePositionCursor(cursor: string | undefined): number | undefined {
  if (!cursor) return undefined;
  const match = POSITION_CURSOR.exec(cursor);
  if (!match) throw errors.validation([{ path: 'cursor', message: 'Invalid cursor' }]);
  return Number(match[1]);
}
