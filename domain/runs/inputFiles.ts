import type { EntityManager } from '@mikro-orm/postgresql';
import type { FileView } from '../files/presenters';
import { decodeCursor, encodeCursor } from '../shared/pagination';

/** A file of the library as a run input: the file, and the newest run that took it. */
export interface InputFileView extends FileView {
  lastUsedAt: string;
  runId: string;
}

interface Row {
  id: string;
  filename: string;
  mime: string;
  size: string | number;
  sha256: string;
  folder_id: string | null;
  created_at: Date;
  last_used_at: Date;
  run_id: string;
}

// Each file once, at its newest use: the runs' `input.fileIds` (an array when present; anything else names
// no file), joined to the library so a deleted file drops out. Paged by (last use, file id), newest first.
const RECENT = `
  select f.id, f.filename, f.mime, f.size, f.sha256, f.folder_id, f.created_at, u.last_used_at, u.run_id
  from (
    select distinct on (x.file_id) x.file_id, r.created_at as last_used_at, r.id as run_id
    from runs r
    cross join lateral jsonb_array_elements_text(
      case when jsonb_typeof(r.input -> 'fileIds') = 'array' then r.input -> 'fileIds' else '[]'::jsonb end
    ) as x(file_id)
    where r.workspace_id = ?
    order by x.file_id, r.created_at desc, r.id desc
  ) u
  join files f on f.id::text = u.file_id and f.workspace_id = ?`;

/**
 * The files most recently used as run inputs (`input.fileIds`), newest use first, each once: what a
 * person starting a run is likely to pick again (docs/api/runs.md#recent-input-files).
 * @throws `validation_error` for a malformed cursor
 */
export async function recentInputFiles(
  em: EntityManager,
  workspaceId: string,
  query: { limit: number; cursor?: string },
): Promise<{ files: InputFileView[]; nextCursor: string | null }> {
  const after = decodeCursor(query.cursor);
  const params: unknown[] = [workspaceId, workspaceId];
  let sql = RECENT;
  if (after) {
    sql += ' where (u.last_used_at, f.id) < (?, ?)';
    params.push(after.createdAt, after.id);
  }
  sql += ' order by u.last_used_at desc, f.id desc limit ?';
  params.push(query.limit + 1);
  const rows = await em.getConnection().execute<Row[]>(sql, params);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    files: page.map((r) => ({
      id: r.id,
      filename: r.filename,
      mime: r.mime,
      size: Number(r.size),
      sha256: r.sha256,
      folderId: r.folder_id,
      createdAt: new Date(r.created_at).toISOString(),
      lastUsedAt: new Date(r.last_used_at).toISOString(),
      runId: r.run_id,
    })),
    nextCursor:
      rows.length > query.limit && last ? encodeCursor({ createdAt: new Date(last.last_used_at), id: last.id }) : null,
  };
}
