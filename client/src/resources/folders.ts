/** `client.folders`: the file library's folders: create, list, rename, move, delete (scopes `files:read` / `files:write`). */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type { Folder, FolderCreateParams, FolderListParams, FolderUpdateParams } from '../file-types.js';

const folderPath = (id: string) => `/v1/folders/${encodeURIComponent(id)}`;

/** Folders of the file library; files go into them with `files.upload(..., { folderId })` or `files.update`. */
export class Folders {
  constructor(private readonly http: HttpClient) {}

  /**
   * Creates a folder, inside `parentId` or at the root.
   * @throws {ValidationError} for a name that is empty, too long or holds `/`, or a parent that is not a folder of the
   * workspace
   */
  create(params: FolderCreateParams, options?: CallOptions): Promise<Folder> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/folders', json: params });
  }

  /**
   * Lists folders, newest first (only one folder's children with `parentId`, `'root'` for the top level), as a
   * lazily fetched {@link CursorList}.
   * @throws {SvcError} on iteration, when a page request fails
   */
  list(params: FolderListParams = {}, options?: CallOptions): CursorList<'folders', Folder> {
    return new CursorList('folders', (cursor) =>
      this.http.request({ ...options, method: 'GET', path: '/v1/folders', query: { ...params, cursor } }),
    );
  }

  /**
   * Renames a folder and/or moves it (`parentId: null`: to the root).
   * @throws {NotFoundError} for an unknown id; {@link ValidationError} for a bad name, an unknown parent, or a move
   * into the folder itself or below it
   */
  update(id: string, params: FolderUpdateParams, options?: CallOptions): Promise<Folder> {
    return this.http.request({ ...options, method: 'PATCH', path: folderPath(id), json: params });
  }

  /**
   * Deletes an empty folder.
   * @throws {NotFoundError} for an unknown id; {@link ConflictError} `conflict` while it holds files or folders
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: folderPath(id) });
  }
}
