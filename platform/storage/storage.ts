import { fileURLToPath } from 'node:url';
import { LocalStorage } from './local';
import type { Storage } from './types';

export { StorageLimitError, StorageNotFoundError } from './errors';
export type { PutResult, Storage } from './types';

/**
 * Builds the storage named by `SVC_STORAGE_URL`: `file:///abs/dir` is a local directory (created on
 * first write). `s3://` is planned but not built yet, so it fails at start-up rather
 * than at the first upload.
 * @throws {Error} for `s3://` (not built yet) and any other scheme
 */
export function createStorage(url: string): Storage {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`SVC_STORAGE_URL is not a URL: ${url}`);
  }
  switch (parsed.protocol) {
    case 'file:':
      return new LocalStorage(fileURLToPath(parsed));
    case 's3:':
      throw new Error(
        'SVC_STORAGE_URL: s3:// object storage is not built yet; ' +
          'use a file:// directory (e.g. file:///var/lib/svc/storage)',
      );
    default:
      throw new Error(`SVC_STORAGE_URL: unsupported scheme ${parsed.protocol} (expected file://)`);
  }
}
