import type { EntityManager } from '@mikro-orm/postgresql';
import { pooledRows } from '../platform/database/rows';

interface Prepared {
  name: string;
  text: string;
}

/** The statements prepared so far, by their text; a few forms of a few hot statements. */
const prepared = new Map<string, Prepared>();
/**
 * Past this many texts a statement runs unprepared: a caller that builds many would fill every connection.
 * The hot statements take a few forms each (a status change's depend on what it writes).
 */
const MAX_PREPARED = 64;

/**
 * Runs one statement as a named prepared statement on a pooled connection: each connection parses and
 * plans its text once, and every later run sends only the values, past MikroORM's and knex's query layers.
 * For a hot statement whose text takes few forms (every value a `?` parameter, as for `em.execute`): the
 * statement that admits a new run (domain/runs/insertRun.ts), whose plan costs PostgreSQL more than its
 * run, and a run's status changes, steps and turns, whose query layers cost the worker more CPU than
 * PostgreSQL spends on them (bench/README.md, the soak section). Inside the caller's transaction it runs
 * there, as `em.execute` (a pooled connection would commit apart from it). Its errors are MikroORM's, as
 * `em.execute` throws them (a unique violation is a `UniqueConstraintViolationException`).
 */
export async function executePrepared<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  if (em.getTransactionContext()) return em.execute<T[]>(sql, params);
  let statement = prepared.get(sql);
  if (!statement) {
    if (prepared.size >= MAX_PREPARED) return em.execute<T[]>(sql, params);
    let n = 0;
    statement = { name: `svc_prepared_${prepared.size + 1}`, text: sql.replace(/\?/g, () => `$${++n}`) };
    prepared.set(sql, statement);
  }
  try {
    return await pooledRows<T>(em.getConnection(), { name: statement.name, text: statement.text, values: params });
  } catch (err) {
    throw em.getDriver().convertException(err as Error);
  }
}
