import { createHash, randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { ChecksumMode, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createStorage, StorageLimitError, StorageNotFoundError } from '../../platform/storage/storage';
import { S3Storage } from '../../platform/storage/s3';
import { bearer, createKey, signUp } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { startMoto, type MotoServer } from '../helpers/motoServer';
import { storedObjects } from '../helpers/storedObjects';

// s3:// storage (docs/api/files.md) against moto, a real S3-compatible server from PyPI (scripts/moto.sh),
// on 127.0.0.1. The file tests of test/api/files.test.ts run on it too under `npm run test:s3`.
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** A stream that hands out `bytes` in 64 KiB chunks, as a request body would arrive. */
const chunked = (bytes: Buffer) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < bytes.length; i += 65_536) yield bytes.subarray(i, i + 65_536);
    })(),
  );

let moto: MotoServer;
beforeAll(async () => {
  moto = await startMoto();
}, 60_000);
afterAll(() => moto?.stop());

describe('S3Storage on moto', () => {
  let storage: S3Storage;
  let config: { storageUrl: string; s3: MotoServer['settings'] };
  beforeAll(() => {
    config = { storageUrl: `s3://${moto.bucket}/unit/`, s3: moto.settings };
    storage = createStorage(config.storageUrl, config.s3) as S3Storage;
  });
  afterAll(() => storage.close());

  it('stores and streams back the bytes, with the size and SHA-256 it measured and a checksum S3 checked', async () => {
    const bytes = randomBytes(200_000);
    const put = await storage.put('small1', chunked(bytes), { maxBytes: 1_000_000 });
    expect(put).toEqual({ size: bytes.length, sha256: sha256(bytes) });
    expect(sha256(await readAll(await storage.get('small1')))).toBe(sha256(bytes));
    // under the prefix of the URL, and with the SHA-256 the server computed as it stored the object
    const client = new S3Client({ ...moto.settings });
    const head = await client.send(
      new HeadObjectCommand({ Bucket: moto.bucket, Key: 'unit/small1', ChecksumMode: ChecksumMode.ENABLED }),
    );
    client.destroy();
    expect(head.ContentLength).toBe(bytes.length);
    expect(head.ChecksumSHA256).toBe(createHash('sha256').update(bytes).digest('base64'));
  });

  it('streams an object larger than one part as a multipart upload', async () => {
    const bytes = randomBytes(11 * 1024 * 1024 + 123);
    const put = await storage.put('large1', chunked(bytes), { maxBytes: 20 * 1024 * 1024 });
    expect(put).toEqual({ size: bytes.length, sha256: sha256(bytes) });
    const back = await readAll(await storage.get('large1'));
    expect(back.length).toBe(bytes.length);
    expect(sha256(back)).toBe(sha256(bytes));
    expect(await storedObjects(config)).not.toContain('large1 (upload in progress)');
  }, 60_000);

  it('refuses more than maxBytes while streaming and leaves no object and no open upload', async () => {
    const before = await storedObjects(config);
    await expect(storage.put('over1', chunked(randomBytes(5000)), { maxBytes: 4096 })).rejects.toBeInstanceOf(
      StorageLimitError,
    );
    // past the first part too: the multipart upload is aborted
    await expect(
      storage.put('over2', chunked(randomBytes(6 * 1024 * 1024)), { maxBytes: 5.5 * 1024 * 1024 }),
    ).rejects.toBeInstanceOf(StorageLimitError);
    expect(await storedObjects(config)).toEqual(before);
  }, 60_000);

  it('answers a caller that hangs up at once with its error, storing nothing', async () => {
    // a fresh storage, whose first put loads the SDK before it reads the body
    const freshConfig = { storageUrl: `s3://${moto.bucket}/unit-fresh/`, s3: config.s3 };
    const fresh = createStorage(freshConfig.storageUrl, freshConfig.s3) as S3Storage;
    const body = new PassThrough();
    const put = fresh.put('hungup1', body, { maxBytes: 1_000 });
    body.destroy(new Error('the caller hung up'));
    await expect(put).rejects.toThrow('the caller hung up');
    fresh.close();
    expect(await storedObjects(freshConfig)).toEqual([]);
  });

  it('answers a missing object with StorageNotFoundError and deletes idempotently', async () => {
    await expect(storage.get('missing1')).rejects.toBeInstanceOf(StorageNotFoundError);
    await storage.put('gone1', chunked(Buffer.from('bye')), { maxBytes: 10 });
    await storage.delete('gone1');
    await storage.delete('gone1');
    await expect(storage.get('gone1')).rejects.toBeInstanceOf(StorageNotFoundError);
  });

  it('refuses a key the service would never choose', async () => {
    await expect(storage.get('../escape')).rejects.toThrow(/invalid storage key/);
  });

  it('keeps each URL prefix apart', async () => {
    const other = createStorage(`s3://${moto.bucket}/elsewhere`, moto.settings) as S3Storage;
    try {
      await expect(other.get('small1')).rejects.toBeInstanceOf(StorageNotFoundError);
    } finally {
      other.close();
    }
  });
});

describe('two API processes on one bucket', () => {
  let a: Harness;
  let b: Harness;
  beforeAll(async () => {
    const shared = { storageUrl: `s3://${moto.bucket}/shared`, s3: moto.settings };
    a = await startApi(shared);
    b = await startApi(shared);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('serves a file uploaded through one from the other, byte for byte', async () => {
    const auth = bearer(await createKey(a, await signUp(a), ['files:read', 'files:write']));
    const bytes = randomBytes(300_000);
    const res = await a.request('/v1/files', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/octet-stream', 'x-filename': 'shared.bin' },
      body: bytes,
    });
    expect(res.status).toBe(201);
    const file = await res.json();
    expect(file).toMatchObject({ size: bytes.length, sha256: sha256(bytes) });

    const got = await b.request(`/v1/files/${file.id}/content`, { headers: auth });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-length')).toBe(String(bytes.length));
    expect(sha256(new Uint8Array(await got.arrayBuffer()))).toBe(sha256(bytes));

    // deleted through the second, gone for the first too
    expect((await b.request(`/v1/files/${file.id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    expect((await a.request(`/v1/files/${file.id}/content`, { headers: auth })).status).toBe(404);
    expect(await storedObjects({ storageUrl: `s3://${moto.bucket}/shared`, s3: moto.settings })).not.toContain(file.id);
  });
});
