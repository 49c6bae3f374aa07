/** `client.files`: the file library: upload, list, download, rename, move, delete. */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type { FileUpdateParams } from '../file-types.js';
import type { FileObject } from '../types.js';

/** Bytes accepted by {@link Files.upload}; all of them can be re-sent when the upload is retried. */
export type UploadBody = Uint8Array | ArrayBuffer | Blob | string;

/**
 * Header-safe form of a filename: printable ASCII is sent as-is; anything else (non-ASCII, control
 * characters) cannot travel in an HTTP header, so such a name is percent-encoded (`encodeURIComponent`).
 */
export function encodeFilenameHeader(filename: string): string {
  return /^[\x20-\x7e]*$/.test(filename) ? filename : encodeURIComponent(filename);
}

/** Uploaded files. */
export class Files {
  constructor(private readonly http: HttpClient) {}

  /**
   * Uploads bytes as a raw body (`POST /v1/files` with `Content-Type: mime` and `X-Filename`).
   * @throws {ValidationError} 413 `payload_too_large` past the upload limit (25 MiB by default)
   */
  upload(bytes: UploadBody, params: { filename: string; mime: string }, options?: CallOptions): Promise<FileObject> {
    return this.http.request({
      ...options,
      method: 'POST',
      path: '/v1/files',
      body: bytes,
      headers: {
        ...options?.headers,
        'content-type': params.mime,
        'x-filename': encodeFilenameHeader(params.filename),
      },
    });
  }

  /**
   * Lists files, optionally of one folder, as a lazily fetched {@link CursorList}.
   * @throws {SvcError} on iteration, when a page request fails
   */
  list(params: { folderId?: string; limit?: number } = {}, options?: CallOptions): CursorList<'files', FileObject> {
    return new CursorList('files', (cursor) =>
      this.http.request({ ...options, method: 'GET', path: '/v1/files', query: { ...params, cursor } }),
    );
  }

  /**
   * Reads a file's metadata.
   * @throws {NotFoundError} for an unknown id
   */
  get(id: string, options?: CallOptions): Promise<FileObject> {
    return this.http.request({ ...options, method: 'GET', path: `/v1/files/${encodeURIComponent(id)}` });
  }

  /**
   * Downloads a file's bytes.
   * @throws {NotFoundError} for an unknown id
   */
  async content(id: string, options?: CallOptions): Promise<Uint8Array> {
    const response = await this.http.raw({
      ...options,
      method: 'GET',
      path: `/v1/files/${encodeURIComponent(id)}/content`,
      headers: { accept: '*/*', ...options?.headers },
    });
    return new Uint8Array(await response.arrayBuffer());
  }

  /**
   * Renames a file and/or moves it to a folder (`folderId: null`: to the root); its bytes stay as they are.
   * @throws {NotFoundError} for an unknown id; {@link ValidationError} for a bad filename or a folder that is not
   * one of the workspace
   */
  update(id: string, params: FileUpdateParams, options?: CallOptions): Promise<FileObject> {
    return this.http.request({
      ...options,
      method: 'PATCH',
      path: `/v1/files/${encodeURIComponent(id)}`,
      json: params,
    });
  }

  /**
   * Deletes a file.
   * @throws {NotFoundError} for an unknown id
   */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: `/v1/files/${encodeURIComponent(id)}` });
  }
}
