import { crc32 } from 'node:zlib';
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';

/**
 * What a zip archive from a caller (an XLSX workbook is one) may inflate to (docs/api/limits.md): in all, per
 * entry, in entries, and as a ratio of inflated to compressed bytes per entry.
 */
export interface ZipLimits {
  maxInflatedBytes: number;
  maxEntryBytes: number;
  maxEntries: number;
  maxRatio: number;
}

/** An entry may inflate to this much at any ratio: tiny XML parts (an empty sheet) compress far past 100:1. */
export const RATIO_FLOOR_BYTES = 1024 * 1024;

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxInflatedBytes: 100 * 1024 * 1024,
  maxEntryBytes: 64 * 1024 * 1024,
  maxEntries: 10_000,
  maxRatio: 100,
};

/** Bytes `guardZip` checked and rewrote: the only input the XLSX readers take (platform/xlsxReader.ts). */
export type GuardedZip = Buffer & { readonly guarded: unique symbol };

/** A zip archive the guard refuses; the message says why, for the caller. */
export class ZipRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipRefused';
  }
}

const MiB = (n: number) => `${Math.floor(n / (1024 * 1024))} MiB`;

function openZip(bytes: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: false, strictFileNames: false }, (err, zip) =>
      err ? reject(new ZipRefused(`Not a readable zip archive: ${err.message}`)) : resolve(zip),
    ),
  );
}

function nextEntry(zip: ZipFile): Promise<Entry | null> {
  return new Promise((resolve, reject) => {
    const done = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: Entry) => (done(), resolve(entry));
    const onEnd = () => (done(), resolve(null));
    const onError = (err: Error) => (done(), reject(new ZipRefused(`Not a readable zip archive: ${err.message}`)));
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

function openStream(zip: ZipFile, entry: Entry, raw: boolean): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, raw ? { decodeFileData: false } : {}, (err, stream) =>
      err ? reject(new ZipRefused(`Cannot read ${entry.fileName}: ${err.message}`)) : resolve(stream),
    ),
  );
}

/**
 * Inflates one entry without keeping its bytes, counting them and stopping the moment they pass `allowed`
 * (the headers may understate them). Answers the inflated size and CRC-32.
 */
async function measure(zip: ZipFile, entry: Entry, allowed: number, tooMuch: () => string) {
  const lies = () => `${entry.fileName} inflates past the ${entry.uncompressedSize} bytes its headers declare`;
  const stream = await openStream(zip, entry, false);
  let size = 0;
  let crc = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > allowed) throw new ZipRefused(tooMuch());
      if (size > entry.uncompressedSize) throw new ZipRefused(lies());
      crc = crc32(chunk as Buffer, crc);
    }
  } catch (err) {
    stream.destroy();
    throw err instanceof ZipRefused
      ? err
      : new ZipRefused(`Cannot inflate ${entry.fileName}: ${(err as Error).message}`);
  }
  return { size, crc };
}

async function rawBytes(zip: ZipFile, entry: Entry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await openStream(zip, entry, true)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface Checked {
  name: Buffer;
  method: number;
  time: number;
  date: number;
  crc: number;
  size: number;
  data: Buffer;
}

/**
 * Writes a plain zip of the checked entries: their compressed bytes as they were (so inflating them gives
 * exactly the bytes measured), with sizes and CRC as measured, one local header per entry and no data
 * descriptors. Entries and sizes are far below the limits that would need ZIP64.
 */
function writeZip(entries: Checked[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt16LE(e.time, 10);
    local.writeUInt16LE(e.date, 12);
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(e.name.length, 26);
    local.writeUInt16LE(0, 28);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    local.copy(header, 8, 6, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, e.name);
    parts.push(local, e.name, e.data);
    offset += local.length + e.name.length + e.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

/**
 * Checks a zip archive from a caller before any parser sees it, and answers a fresh archive of only what was
 * checked: every entry's declared size, its actual inflated bytes while streaming (stopping past the limit,
 * since headers can lie), the total, the number of entries and each entry's compression ratio (above
 * `RATIO_FLOOR_BYTES`). Entries only in local headers (not in the central directory), overlapping entries
 * and trailing data never reach the parser. At most `maxInflatedBytes` are inflated, none kept.
 * @throws {ZipRefused} for an archive that is not a zip, is encrypted, uses another compression than
 *   stored/deflate, or passes a limit
 */
export async function guardZip(bytes: Buffer, limits: ZipLimits): Promise<GuardedZip> {
  const zip = await openZip(bytes);
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new ZipRefused(`The archive has more than ${limits.maxEntries} entries`);
    }
    const checked: Checked[] = [];
    let total = 0;
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      if (entry.fileName.endsWith('/')) continue;
      const name = entry.fileName;
      if (entry.isEncrypted()) throw new ZipRefused(`${name} is encrypted`);
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
        throw new ZipRefused(`${name} uses an unsupported compression method`);
      }
      const byRatio = Math.max(RATIO_FLOOR_BYTES, entry.compressedSize * limits.maxRatio);
      const allowed = Math.min(limits.maxEntryBytes, byRatio, limits.maxInflatedBytes - total);
      const tooMuch = () =>
        allowed === byRatio
          ? `${name} inflates more than ${limits.maxRatio} times its compressed size`
          : allowed === limits.maxEntryBytes
            ? `${name} inflates past ${MiB(limits.maxEntryBytes)}`
            : `The archive inflates past ${MiB(limits.maxInflatedBytes)} in all`;
      if (entry.uncompressedSize > allowed) throw new ZipRefused(tooMuch());
      const { size, crc } = await measure(zip, entry, allowed, tooMuch);
      if (size !== entry.uncompressedSize) throw new ZipRefused(`${name} is corrupt (size mismatch)`);
      if (crc >>> 0 !== entry.crc32 >>> 0) throw new ZipRefused(`${name} is corrupt (CRC mismatch)`);
      total += size;
      const data = await rawBytes(zip, entry);
      const method = entry.compressionMethod;
      const time = entry.lastModFileTime;
      checked.push({ name: Buffer.from(name, 'utf8'), method, time, date: entry.lastModFileDate, crc, size, data });
    }
    return writeZip(checked) as GuardedZip;
  } finally {
    zip.close();
  }
}
