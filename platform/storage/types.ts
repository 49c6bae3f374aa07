import type { Readable } from 'node:stream';

/** What {@link Storage.put} measured while it wrote: the byte count and the SHA-256 (hex) of the bytes. */
export interface PutResult {
  size: number;
  sha256: string;
}

/**
 * Where file bytes live (`SVC_STORAGE_URL`, docs/api/files.md). Keys are chosen by the service (the file
 * id), never taken from user input, so an implementation may map them onto paths or object names.
 */
export interface Storage {
  /**
   * Streams `source` into the object `key`; the object appears only when every byte is written.
   * On any failure nothing is left behind and `source` is destroyed, so callers that must keep the
   * underlying connection alive pass a stream of their own rather than the request itself.
   * @throws {StorageLimitError} as soon as more than `maxBytes` bytes arrive
   */
  put(key: string, source: Readable, opts: { maxBytes: number }): Promise<PutResult>;
  /**
   * Opens the object for reading.
   * @throws {StorageNotFoundError} when there is no object under `key`
   */
  get(key: string): Promise<Readable>;
  /** Removes the object; removing a missing object is not an error (deletes are retried). */
  delete(key: string): Promise<void>;
}
