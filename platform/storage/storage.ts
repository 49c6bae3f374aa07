import { fileURLToPath } from 'node:url';
import { LocalStorage } from './local';
import { parseS3Url, S3Storage, type S3Settings } from './s3';
import type { Storage } from './types';

export { StorageLimitError, StorageNotFoundError } from './errors';
export type { PutResult, Storage } from './types';
export type { S3Settings } from './s3';

/**
 * Builds the storage named by `SVC_STORAGE_URL` (docs/api/files.md): `file:///abs/dir` is a local
 * directory (created on first write); `s3://bucket/prefix` is an S3 bucket (or any S3-compatible
 * server), reached with `s3` (`config.s3`).
 * @throws {Error} for a URL that is not one of these
 */
export function createStorage(url: string, s3: S3Settings = { region: 'us-east-1', forcePathStyle: false }): Storage {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`SVC_STORAGE_URL is not a URL: ${url}`);
  }
  switch (parsed.protocol) {
    case 'file:':
      return new LocalStorage(fileURLToPath(parsed));
    case 's3:': {
      const { bucket, prefix } = parseS3Url(parsed);
      return new S3Storage(bucket, prefix, s3);
    }
    default:
      throw new Error(`SVC_STORAGE_URL: unsupported scheme ${parsed.protocol} (expected file:// or s3://)`);
  }
}
