/**
 * Cursor pagination (every list answers `{ <plural>: [...], nextCursor }`; the next page is `?cursor=<nextCursor>`).
 * Like openai-node's pagination, a list is an async iterable over every item that can also walk pages.
 */
import { SvcError } from './errors.js';

/** One page as the service returns it; `K` is the plural key, e.g. `'runs'`. */
export type Page<K extends string, T> = { [P in K]: T[] } & { nextCursor: string | null };

/** Fetches the page after `cursor` (`undefined` for the first page). */
export type PageFetcher<K extends string, T> = (cursor: string | undefined) => Promise<Page<K, T>>;

/**
 * A lazily fetched, cursor-paginated list. Nothing is requested until it is iterated, and each
 * iteration starts again from the first page.
 *
 * ```ts
 * for await (const run of client.runs.list({ status: 'failed' })) console.log(run.id);
 * for await (const page of client.runs.list().pages()) console.log(page.runs.length, page.nextCursor);
 * ```
 */
export class CursorList<K extends string, T> implements AsyncIterable<T> {
  constructor(
    private readonly key: K,
    private readonly fetchPage: PageFetcher<K, T>,
  ) {}

  /**
   * Iterates the pages, following `nextCursor` until it is `null`.
   * @throws {SvcError} `pagination.cursor_loop` if the service hands back a cursor it already returned,
   * so a misbehaving server cannot make the iteration endless; otherwise whatever the request throws.
   */
  async *pages(): AsyncGenerator<Page<K, T>, void, undefined> {
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (;;) {
      const page = await this.fetchPage(cursor);
      if (!Array.isArray(page?.[this.key])) {
        throw new SvcError({ code: 'invalid_response', message: `List response has no "${this.key}" array` });
      }
      yield page;
      const next = page.nextCursor;
      if (next === null || next === undefined || next === '') return;
      if (seen.has(next)) {
        throw new SvcError({ code: 'pagination.cursor_loop', message: `Cursor ${next} was returned twice` });
      }
      seen.add(next);
      cursor = next;
    }
  }

  /** Iterates every item of every page, in the service's order (newest first). */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page[this.key];
  }

  /**
   * Collects items into an array, stopping after `limit` items when given.
   * Convenient for small lists; prefer `for await` for large ones.
   */
  async toArray(limit = Infinity): Promise<T[]> {
    const items: T[] = [];
    if (limit <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }
}
