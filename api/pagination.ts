import { z } from 'zod';

/** CONTRACT conventions: `?limit=` 1..100 (default 20) and an opaque `?cursor=`. */
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

/** Decodes a cursor; a malformed one is the caller's error, reported by `onInvalid`. */
export function decodeCursor(cursor: string | undefined, onInvalid: () => Error): Cursor | undefined {
  if (!cursor) return undefined;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const createdAt = new Date(at);
    if (typeof id !== 'string' || Number.isNaN(createdAt.getTime())) throw new Error('bad cursor');
    return { createdAt, id };
  } catch {
    throw onInvalid();
  }
}

/** The ORM filter for rows strictly after the cursor in (createdAt desc, id desc) order. */
export function afterCursor(cursor: Cursor | undefined): Record<string, unknown> {
  if (!cursor) return {};
  return {
    $or: [{ createdAt: { $lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { $lt: cursor.id } }],
  };
}

/** Splits a `limit + 1` fetch into the page and the cursor of the next one. */
export function page<T extends Cursor>(rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1]) : null };
}
