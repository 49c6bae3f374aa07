import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StorageLimitError, StorageNotFoundError } from './errors';
import type { PutResult, Storage } from './types';

// Keys are service-chosen ids; anything else (a separator, `..`, a leading dot) is a programming error.
const KEY = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * `file://` storage: one file per object under `<root>/<first two key chars>/<key>`;
 * the two-character fan-out keeps directories small. Writes go to a temporary file in the same
 * directory and are renamed into place, so a reader never sees a partial object and a failed
 * upload leaves nothing behind.
 */
export class LocalStorage implements Storage {
  constructor(readonly root: string) {
    if (!path.isAbsolute(root)) throw new Error(`file:// storage needs an absolute directory, got ${root}`);
  }

  /** The object's path; throws for a key that could escape the root. */
  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    return path.join(this.root, key.slice(0, 2), key);
  }

  async put(key: string, source: Readable, opts: { maxBytes: number }): Promise<PutResult> {
    const final = this.pathOf(key);
    await mkdir(path.dirname(final), { recursive: true });
    // A dot-name the listing of objects can tell apart; random so retries never collide.
    const temp = path.join(path.dirname(final), `.${key}.${randomBytes(6).toString('hex')}.tmp`);
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
    try {
      // `wx`: the temporary name is fresh; `flush`: fsync before close, so the rename publishes durable bytes.
      await pipeline(source, meter, createWriteStream(temp, { flags: 'wx', flush: true }));
      await rename(temp, final);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    return { size, sha256: hash.digest('hex') };
  }

  async get(key: string): Promise<Readable> {
    // Opening first turns a missing object into a rejected promise here rather than a stream error later.
    const handle = await open(this.pathOf(key), 'r').catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'ENOENT' ? new StorageNotFoundError(key) : err;
    });
    return handle.createReadStream();
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
