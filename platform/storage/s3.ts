import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { s3Sdk } from '../lazyPackages';
import { StorageLimitError, StorageNotFoundError } from './errors';
import type { PutResult, Storage } from './types';

// Keys are service-chosen ids; anything else is a programming error (the same rule as file:// storage).
const KEY = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** How `s3://` storage reaches its service (`config.s3`; docs/api/files.md). */
export interface S3Settings {
  /** An S3-compatible server's URL; none: AWS itself. */
  endpoint?: string;
  region: string;
  /** `https://host/bucket/key` rather than `https://bucket.host/key` (most S3-compatible servers want it). */
  forcePathStyle: boolean;
  /** Static credentials; none: the AWS SDK's default chain (e.g. an instance or task role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Parts of a multipart upload: S3's smallest part, so at most two parts' bytes are held in memory at once. */
const PART_BYTES = 5 * 1024 * 1024;

/**
 * `s3://bucket/prefix` storage: one object per key under the prefix. Uploads stream through
 * `@aws-sdk/lib-storage` (one PUT below 5 MiB, a multipart upload above), each with a SHA-256 checksum the
 * server verifies as it stores the bytes, so a corrupted transfer is refused rather than kept. An upload
 * that fails (or goes over its limit) is aborted, so no object and no orphaned parts are left behind.
 * Reads stream the object's body.
 */
export class S3Storage implements Storage {
  /** Made on first use, with the SDK (platform/lazyPackages.ts). */
  private client?: S3Client;

  constructor(
    readonly bucket: string,
    readonly prefix: string,
    private readonly settings: S3Settings,
  ) {}

  /** The SDK and this storage's client. */
  private async sdk() {
    const sdk = await s3Sdk();
    this.client ??= new sdk.S3Client({
      region: this.settings.region,
      ...(this.settings.endpoint ? { endpoint: this.settings.endpoint } : {}),
      forcePathStyle: this.settings.forcePathStyle,
      ...(this.settings.credentials ? { credentials: this.settings.credentials } : {}),
    });
    return { sdk, client: this.client };
  }

  /** The object's name in the bucket; throws for a key the service would never choose. */
  private nameOf(key: string): string {
    if (!KEY.test(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    return this.prefix + key;
  }

  async put(key: string, source: Readable, opts: { maxBytes: number }): Promise<PutResult> {
    const name = this.nameOf(key);
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        // Checked per chunk while streaming, not only from Content-Length (over the limit is 413 `payload_too_large`).
        if (size > opts.maxBytes) return done(new StorageLimitError(opts.maxBytes));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const { sdk, client } = await this.sdk();
    const upload = new sdk.Upload({
      client,
      params: { Bucket: this.bucket, Key: name, Body: meter, ChecksumAlgorithm: 'SHA256' },
      partSize: PART_BYTES,
      queueSize: 1,
      leavePartsOnError: false,
    });
    const piped = pipeline(source, meter);
    try {
      await Promise.all([piped, upload.done()]);
    } catch (err) {
      source.destroy();
      meter.destroy();
      await upload.abort().catch(() => undefined);
      // The limit is the caller's error; whichever side noticed first, report that one.
      const limit = await piped.then(
        () => undefined,
        (e: unknown) => (e instanceof StorageLimitError ? e : undefined),
      );
      throw limit ?? err;
    }
    return { size, sha256: hash.digest('hex') };
  }

  async get(key: string): Promise<Readable> {
    const { sdk, client } = await this.sdk();
    try {
      const res = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.nameOf(key) }));
      if (!(res.Body instanceof Readable)) throw new Error(`S3 answered ${key} without a readable body`);
      return res.Body;
    } catch (err) {
      if (err instanceof sdk.NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') {
        throw new StorageNotFoundError(key);
      }
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    // S3 answers a delete of a missing object with success, as this interface wants.
    const { sdk, client } = await this.sdk();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.nameOf(key) }));
  }

  /** Closes the client's sockets (tests, shutdown). */
  close(): void {
    this.client?.destroy();
  }
}

/** Bucket and key prefix of `s3://bucket/some/prefix` (the prefix ends in `/` unless empty). */
export function parseS3Url(url: URL): { bucket: string; prefix: string } {
  const bucket = url.hostname;
  if (!bucket) throw new Error('SVC_STORAGE_URL: s3:// needs a bucket, e.g. s3://my-bucket/svc');
  const path = decodeURIComponent(url.pathname).split('/').filter(Boolean).join('/');
  return { bucket, prefix: path ? `${path}/` : '' };
}
