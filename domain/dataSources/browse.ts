import type { EntityManager } from '@mikro-orm/postgresql';
import { DataSource } from '../../db/entities/DataSource';
import { errors } from '../errors';
import { findDataSource } from './dataSources';
import { SourceFailure, sourceError, withSource, type SourceDeps } from './connection';
import type { ReadResult, SourceColumn, SourceObject } from './drivers/types';
import { planRead, type ReadRequest } from './readPlan';

/**
 * Connects and runs a trivial read-only statement; records `ok` or `error` on the source. The error
 * is the driver's message with the password scrubbed out (docs/api/data-sources.md).
 */
export async function testDataSource(
  em: EntityManager,
  deps: SourceDeps,
  workspaceId: string,
  id: string,
): Promise<{ ok: boolean; latencyMs: number; error?: string }> {
  const source = await findDataSource(em, workspaceId, id);
  const started = performance.now();
  let error: string | undefined;
  try {
    await withSource(em, deps, source, (driver) => driver.ping());
  } catch (err) {
    if (!(err instanceof SourceFailure)) throw err;
    error = err.message;
  }
  const latencyMs = Math.round(performance.now() - started);
  await em.nativeUpdate(DataSource, { id: source.id }, { status: error ? 'error' : 'ok', updatedAt: new Date() });
  return error ? { ok: false, latencyMs, error } : { ok: true, latencyMs };
}

async function run<T>(
  em: EntityManager,
  deps: SourceDeps,
  workspaceId: string,
  id: string,
  fn: Parameters<typeof withSource<T>>[3],
): Promise<T> {
  const source = await findDataSource(em, workspaceId, id);
  try {
    return await withSource(em, deps, source, fn);
  } catch (err) {
    throw sourceError(err);
  }
}

/** The source's tables and views (or sheets). Throws `not_found`, 409 `conflict` when the source fails. */
export function listObjects(
  em: EntityManager,
  deps: SourceDeps,
  workspaceId: string,
  id: string,
): Promise<{ objects: SourceObject[] }> {
  return run(em, deps, workspaceId, id, async (d) => ({ objects: await d.listObjects() }));
}

/** One object's columns. Throws `not_found` for an unknown source or object. */
export function describeObject(
  em: EntityManager,
  deps: SourceDeps,
  workspaceId: string,
  id: string,
  name: string,
): Promise<{ name: string; columns: SourceColumn[] }> {
  return run(em, deps, workspaceId, id, async (d) => {
    const columns = await d.describe(name);
    if (!columns) throw errors.notFound('Object');
    return { name, columns };
  });
}

/**
 * A structured read: the object and every column checked against the live schema, values passed as
 * parameters, at most 1000 rows. Throws 400 naming unknown objects, columns and misfit values.
 */
export function readSource(
  em: EntityManager,
  deps: SourceDeps,
  workspaceId: string,
  id: string,
  req: ReadRequest,
): Promise<ReadResult> {
  return run(em, deps, workspaceId, id, (d) => readWith(d, req));
}

/** The read itself, for a driver already open (the API's reads and saved tables' refreshes). */
export async function readWith(
  driver: Parameters<Parameters<typeof withSource>[3]>[0],
  req: ReadRequest,
): Promise<ReadResult> {
  const columns = await driver.describe(req.object);
  if (!columns) throw errors.validation([{ path: 'object', message: `Unknown object "${req.object}"` }]);
  return driver.read(planRead(req, columns));
}
