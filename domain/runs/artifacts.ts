import type { EntityManager } from '@mikro-orm/postgresql';
import { decodeCursor, encodeCursor } from '../shared/pagination';
import { findRun } from './find';

/** A file a run produced, as `GET /v1/runs/{id}/artifacts` shows it (docs/api/runs.md#artifacts). */
export interface ArtifactView {
  fileId: string;
  name: string;
  mime: string;
  size: number;
  step: number | null;
  createdAt: string;
}

interface Row {
  id: string;
  file_id: string;
  filename: string;
  mime: string;
  size: string | number;
  step: number | null;
  created_at: Date;
}

// The file's current name (a rename shows); a deleted file has taken its artifact row with it.
const ARTIFACTS = `
  select a.id, a.file_id, f.filename, f.mime, f.size, a.step, a.created_at
  from run_artifacts a join files f on f.id = a.file_id
  where a.run_id = ?`;

/**
 * A page of the files a run of the workspace produced, newest first.
 * @throws `not_found` for a run of another workspace; `validation_error` for a malformed cursor
 */
export async function listRunArtifacts(
  em: EntityManager,
  workspaceId: string,
  runId: string,
  query: { limit: number; cursor?: string },
): Promise<{ artifacts: ArtifactView[]; nextCursor: string | null }> {
  const after = decodeCursor(query.cursor);
  await findRun(em, workspaceId, runId);
  const params: unknown[] = [runId];
  let sql = ARTIFACTS;
  if (after) {
    sql += ' and (a.created_at, a.id) < (?, ?)';
    params.push(after.createdAt, after.id);
  }
  sql += ' order by a.created_at desc, a.id desc limit ?';
  params.push(query.limit + 1);
  const rows = await em.getConnection().execute<Row[]>(sql, params);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    artifacts: page.map(presentArtifact),
    nextCursor:
      rows.length > query.limit && last ? encodeCursor({ createdAt: new Date(last.created_at), id: last.id }) : null,
  };
}

/** Every file a run produced, newest first, for its report (a run writes a handful, never a page's worth). */
export async function allRunArtifacts(em: EntityManager, runId: string): Promise<ArtifactView[]> {
  const rows = await em
    .getConnection()
    .execute<Row[]>(`${ARTIFACTS} order by a.created_at desc, a.id desc limit 1000`, [runId]);
  return rows.map(presentArtifact);
}

function presentArtifact(r: Row): ArtifactView {
  return {
    fileId: r.file_id,
    name: r.filename,
    mime: r.mime,
    size: Number(r.size),
    step: r.step,
    createdAt: new Date(r.created_at).toISOString(),
  };
}
