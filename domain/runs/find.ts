import type { EntityManager, AbstractSqlConnection } from '@mikro-orm/postgresql';
import { Run } from '../../db/entities/Run';
import { RunStep } from '../../db/entities/RunStep';
import { errors } from '../errors';
import { decodePositionCursor, encodePositionCursor, findPage } from '../shared/pagination';
import type { RunStatus } from '../../workflows/messages';
import { pooledRows } from '../../platform/database/rows';
import { RunViewLoader } from './runViewLoader';
import { presentRunRow, runViewColumns, type RunViewRow } from './presenters';

/** Loads a run of the caller's workspace; another workspace's id is 404, never 403 (docs/api/errors.md). */
export async function findRun(em: EntityManager, workspaceId: string, id: string): Promise<Run> {
  const run = await em.findOne(Run, { id, workspaceId });
  if (!run) throw errors.notFound('Run');
  return run;
}

/**
 * `findRun` and the run's view in one statement, without building the entity: `GET /v1/runs/{id}` is the
 * read that callers poll, and hydrating a run (identity map, change-set snapshot) cost more than the query
 * itself (bench/README.md, case 4). The plain row goes through the one run presenter (presentRunRow in
 * presenters.ts) and comes back as JSON text, the response body as is. Building the view in PostgreSQL
 * instead (runViewSql.ts, which a status change's event still uses) measured no cheaper per GET
 * (bench/README.md, "One run presenter"). Same 404. Concurrent reads share a statement (runViewLoader.ts).
 * On the shared connection's pool, through `pg` alone (platform/database/rows.ts): no EntityManager is
 * needed, so the request forks none.
 */
export async function findRunView(db: AbstractSqlConnection, workspaceId: string, id: string): Promise<string> {
  // The route validates the id, but a read shares its statement with other callers' reads: an id that
  // PostgreSQL cannot cast would fail all of them, so none ever reaches the loader.
  if (!UUID.test(id)) throw errors.notFound('Run');
  let loader = loaders.get(db);
  if (!loader) {
    loader = new RunViewLoader(db, selectRunViews, maxInFlight(db));
    loaders.set(db, loader);
  }
  const view = await loader.load(workspaceId, id);
  if (view === undefined) throw errors.notFound('Run');
  return view;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One loader per connection (pool): one per API process. */
const loaders = new WeakMap<AbstractSqlConnection, RunViewLoader>();

/** Half the pool: the other half stays free for everything else the process does. */
function maxInFlight(db: AbstractSqlConnection): number {
  const pool = (db.getKnex() as unknown as { client: { config: { pool?: { max?: number } } } }).client.config.pool;
  return Math.max(1, Math.floor((pool?.max ?? 10) / 2));
}

// Named statements: each pooled connection parses and plans the read once, not on every read.
const RUN_VIEW = `select ${runViewColumns('r')} from runs r where r.id = $1 and r.workspace_id = $2`;
const RUN_VIEWS = `select k.i::int as i, ${runViewColumns('r')}
  from unnest($1::uuid[], $2::uuid[]) with ordinality k(id, ws, i)
  join runs r on r.id = k.id and r.workspace_id = k.ws`;

const viewText = (row: RunViewRow) => JSON.stringify(presentRunRow(row));

/** The views of a batch's runs by their index in the batch; a lone read takes the one-row statement. */
async function selectRunViews(
  db: AbstractSqlConnection,
  keys: Array<{ workspaceId: string; id: string }>,
): Promise<Map<number, string>> {
  const views = new Map<number, string>();
  if (keys.length === 1) {
    const rows = await pooledRows<RunViewRow>(db, {
      name: 'svc_run_row',
      text: RUN_VIEW,
      values: [keys[0].id, keys[0].workspaceId],
    });
    if (rows[0]) views.set(0, viewText(rows[0]));
    return views;
  }
  const rows = await pooledRows<RunViewRow & { i: number }>(db, {
    name: 'svc_run_rows',
    text: RUN_VIEWS,
    values: [keys.map((k) => k.id), keys.map((k) => k.workspaceId)],
  });
  // ordinality counts from 1
  for (const row of rows) views.set(row.i - 1, viewText(row));
  return views;
}

/** A page of the workspace's runs, newest first, optionally by status and agent. */
export async function listRuns(
  em: EntityManager,
  workspaceId: string,
  query: { limit: number; cursor?: string; status?: RunStatus; agentId?: string },
): Promise<{ items: Run[]; nextCursor: string | null }> {
  const where: Record<string, unknown> = { workspaceId };
  if (query.status) where.status = query.status;
  if (query.agentId) where.agentId = query.agentId;
  return findPage(em, Run, where, query);
}

/**
 * A page of a run's steps in order (by index, oldest first): a long run has thousands, so they page like
 * every list, the cursor being the last index served.
 */
export async function listSteps(
  em: EntityManager,
  runId: string,
  query: { limit: number; cursor?: string },
): Promise<{ items: RunStep[]; nextCursor: string | null }> {
  const after = decodePositionCursor(query.cursor);
  const rows = await em.find(RunStep, after === undefined ? { runId } : { runId, index: { $gt: after } }, {
    orderBy: { index: 'asc' },
    limit: query.limit + 1,
  });
  const items = rows.slice(0, query.limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > query.limit ? encodePositionCursor(last.index) : null };
}
