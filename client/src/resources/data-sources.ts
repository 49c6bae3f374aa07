/** `client.dataSources`: databases and uploaded sheets read without SQL (scopes `data_sources:read` / `data_sources:manage`). */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type {
  DataSource,
  DataSourceCreateParams,
  DataSourceTestResult,
  DataSourceUpdateParams,
  ReadParams,
  ReadResult,
  SourceObject,
  SourceObjectDetail,
  UploadedSheets,
} from '../data-source-types.js';
import { encodeFilenameHeader, type UploadBody } from './files.js';

const path = (id: string) => `/v1/data-sources/${encodeURIComponent(id)}`;

/** Data sources of the workspace. */
export class DataSources {
  constructor(private readonly http: HttpClient) {}

  /**
   * Creates a data source; a database's password is stored encrypted and never returned.
   * @throws {ValidationError} for an invalid body
   */
  create(params: DataSourceCreateParams, options?: CallOptions): Promise<DataSource> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/data-sources', json: params });
  }

  /**
   * Lists data sources, newest first, as a lazily fetched {@link CursorList}.
   * @throws {SvcError} on iteration, when a page request fails
   */
  list(params: { limit?: number } = {}, options?: CallOptions): CursorList<'dataSources', DataSource> {
    return new CursorList('dataSources', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: '/v1/data-sources',
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /** @throws {NotFoundError} for an unknown id */
  get(id: string, options?: CallOptions): Promise<DataSource> {
    return this.http.request({ ...options, method: 'GET', path: path(id) });
  }

  /**
   * Renames a source or changes its connection settings (then it is untested again).
   * @throws {NotFoundError} for an unknown id
   */
  update(id: string, params: DataSourceUpdateParams, options?: CallOptions): Promise<DataSource> {
    return this.http.request({ ...options, method: 'PATCH', path: path(id), json: params });
  }

  /** Deletes a source, its sheets and its saved tables. @throws {NotFoundError} for an unknown id */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: path(id) });
  }

  /** Connects and runs a read-only statement; records the status. @throws {NotFoundError} for an unknown id */
  test(id: string, options?: CallOptions): Promise<DataSourceTestResult> {
    return this.http.request({ ...options, method: 'POST', path: `${path(id)}/test` });
  }

  /**
   * Uploads a CSV or XLSX file to a file source; it becomes one sheet per CSV file or worksheet.
   * @throws {ValidationError} 413 past the upload limit; 400 for a file that is not CSV/XLSX
   */
  upload(
    id: string,
    bytes: UploadBody,
    params: { filename: string; mime: string },
    options?: CallOptions,
  ): Promise<UploadedSheets> {
    return this.http.request({
      ...options,
      method: 'POST',
      path: `${path(id)}/files`,
      body: bytes,
      headers: {
        ...options?.headers,
        'content-type': params.mime,
        'x-filename': encodeFilenameHeader(params.filename),
      },
    });
  }

  /** The source's tables, views or sheets. @throws {ConflictError} when the source fails */
  async objects(id: string, options?: CallOptions): Promise<SourceObject[]> {
    const body: { objects: SourceObject[] } = await this.http.request({
      ...options,
      method: 'GET',
      path: `${path(id)}/objects`,
    });
    return body.objects;
  }

  /** One object's columns. @throws {NotFoundError} for an unknown object */
  object(id: string, name: string, options?: CallOptions): Promise<SourceObjectDetail> {
    return this.http.request({ ...options, method: 'GET', path: `${path(id)}/objects/${encodeURIComponent(name)}` });
  }

  /**
   * A structured read (never SQL), at most 1000 rows.
   * @throws {ValidationError} naming an unknown object, column or misfit value
   */
  read(id: string, params: ReadParams, options?: CallOptions): Promise<ReadResult> {
    return this.http.request({ ...options, method: 'POST', path: `${path(id)}/read`, json: params });
  }
}
