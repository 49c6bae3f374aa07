import { Migration } from '@mikro-orm/migrations';

/**
 * Keeps each knowledge document's `search` tsvector in its table row, uncompressed, so that ranking reads
 * it straight from the heap page (docs/api/knowledge.md#search). By default PostgreSQL compresses and
 * moves out of line any value that makes a row longer than about 2 KB, which a 150-word document's vector
 * already does: a search for a word found in all of 10,000 such documents then spent its time fetching
 * and decompressing 10,000 vectors, twice (once to match, once to rank): about 180 ms, against 35 ms with
 * the vectors in the rows (bench/README.md, case 6).
 *
 * - `toast_tuple_target = 8160` (the largest allowed): a row is left as it is up to a full page.
 * - `search` storage `main`: when a row is longer than that, the long text is compressed and moved out
 *   first; the vector is compressed next and moved out of the row only if it still does not fit.
 *
 * Both settings apply to rows as they are written: the update rewrites the stored vectors (unchanged)
 * under them.
 */
export class Migration20261123190000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "knowledge_documents" set (toast_tuple_target = 8160);`);
    this.addSql(`alter table "knowledge_documents" alter column "search" set storage main;`);
    // `|| ''` makes a new (equal) value, which the toaster stores afresh; assigning the column to itself
    // would keep the old out-of-line pointer.
    this.addSql(`update "knowledge_documents" set "search" = "search" || ''::tsvector where "search" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "knowledge_documents" reset (toast_tuple_target);`);
    this.addSql(`alter table "knowledge_documents" alter column "search" set storage extended;`);
  }
}
