import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../platform/config';
import { parseS3Url } from '../../platform/storage/s3';

type StorageConfig = Pick<Config, 'storageUrl' | 's3'>;

/**
 * The names of everything the storage of `config` holds, whichever kind it is (the file tests run on
 * `file://` and again on `s3://` under `npm run test:s3`): for a directory every file's name, temporary ones
 * included; for a bucket every object under the prefix and every multipart upload still open there, so
 * "nothing left behind" covers half-made objects on both.
 */
export async function storedObjects(config: StorageConfig): Promise<string[]> {
  const url = new URL(config.storageUrl);
  if (url.protocol === 'file:') {
    const entries = await readdir(fileURLToPath(url), { recursive: true, withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isFile()).map((e) => e.name);
  }
  const { bucket, prefix } = parseS3Url(url);
  const client = new S3Client({ ...config.s3 });
  try {
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
      );
      names.push(...(page.Contents ?? []).map((o) => (o.Key ?? '').slice(prefix.length)));
      token = page.NextContinuationToken;
    } while (token);
    const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix }));
    names.push(...(uploads.Uploads ?? []).map((u) => `${(u.Key ?? '').slice(prefix.length)} (upload in progress)`));
    return names;
  } finally {
    client.destroy();
  }
}

/** A storage URL of the same kind as `config`'s that nothing else uses: a new directory, or a new prefix. */
export async function freshStorageUrl(config: StorageConfig, name: string): Promise<string> {
  const url = new URL(config.storageUrl);
  if (url.protocol === 'file:') return pathToFileURL(await mkdtemp(path.join(tmpdir(), `svc-${name}-`))).href;
  const { bucket, prefix } = parseS3Url(url);
  return `s3://${bucket}/${prefix}${name}-${randomBytes(4).toString('hex')}`;
}
