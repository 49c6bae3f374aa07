import type { ToolSpec } from '../../workflows/agentTurn';
import type { ToolDeps, ToolRegistry } from '../tools/registry';
import type { Orm } from '../../db/orm';
import { Agent } from '../../db/entities/Agent';
import { Run } from '../../db/entities/Run';
import { SavedTable, SavedTableRow } from '../../db/entities/SavedTable';

export const SAVED_TABLE_ROWS = 'saved_table_rows';

/** Rows one call returns at most. */
const MAX_ROWS = 100;

export const SAVED_TABLE_ROWS_SPEC: ToolSpec = {
  name: SAVED_TABLE_ROWS,
  description:
    'Read rows of a saved table linked to this agent (by savedTableId or name), up to 100 per call from offset; returns the columns, the rows and the next offset.',
  parameters: {
    type: 'object',
    properties: {
      savedTableId: { type: 'string' },
      name: { type: 'string' },
      limit: { type: 'integer', minimum: 1, maximum: MAX_ROWS },
      offset: { type: 'integer', minimum: 0 },
    },
  },
};

const int = (v: unknown, min: number, max: number, fallback: number) =>
  typeof v === 'number' && Number.isInteger(v) ? Math.min(Math.max(v, min), max) : fallback;

/**
 * Runs `saved_table_rows` for a run: only saved tables of the run's workspace that its agent links
 * (`savedTableIds`, docs/api/data-sources.md). Returns `{ savedTableId, name, columns, rows, rowCount,
 * refreshedAt, status, nextOffset }` as JSON text.
 * @throws Error for a table the agent does not link (given back to the model as the tool's error)
 */
export async function runSavedTableRows(orm: Orm, runId: string, args: Record<string, unknown>): Promise<string> {
  const em = orm.em.fork();
  const run = await em.findOne(Run, runId, { fields: ['workspaceId', 'agentId'] });
  if (!run) throw new Error('run not found');
  const agent = await em.findOne(Agent, run.agentId, { fields: ['savedTableIds'] });
  const linked = agent?.savedTableIds ?? [];
  const byId = typeof args.savedTableId === 'string' ? args.savedTableId : undefined;
  const byName = typeof args.name === 'string' ? args.name : undefined;
  if (!byId && !byName) throw new Error('saved_table_rows needs a savedTableId or a name');
  const tables = linked.length ? await em.find(SavedTable, { id: { $in: linked }, workspaceId: run.workspaceId }) : [];
  const table = tables.find((t) => (byId ? t.id === byId : t.name === byName));
  if (!table) throw new Error(`no saved table ${byId ?? byName} is linked to this agent`);
  const limit = int(args.limit, 1, MAX_ROWS, 50);
  const offset = int(args.offset, 0, Number.MAX_SAFE_INTEGER, 0);
  const rows = await em.find(
    SavedTableRow,
    { savedTableId: table.id, position: { $gte: offset } },
    { orderBy: { position: 'asc' }, limit },
  );
  const next = offset + rows.length;
  return JSON.stringify({
    savedTableId: table.id,
    name: table.name,
    columns: table.columns,
    rows: rows.map((r) => r.data),
    rowCount: table.rowCount,
    refreshedAt: table.refreshedAt?.toISOString() ?? null,
    status: table.status,
    nextOffset: next < table.rowCount ? next : null,
  });
}

/** Adds `saved_table_rows` to a tool registry (it runs only where `orm` is given: the worker). */
export function registerSavedTableTools(tools: ToolRegistry, deps: ToolDeps): void {
  tools.register(SAVED_TABLE_ROWS_SPEC, (args, context) => {
    if (!deps.orm || !context) throw new Error('saved_table_rows is not available here');
    return runSavedTableRows(deps.orm, context.runId, args);
  });
}
