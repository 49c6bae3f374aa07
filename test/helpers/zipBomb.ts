import { constants, crc32, deflateRawSync } from 'node:zlib';

/** One entry of a hand-written zip: its compressed bytes and what its headers say. */
export interface ZipPart {
  name: string;
  /** Raw deflate data (method 8). */
  data: Buffer;
  /** The inflated size the headers declare: the truth or a lie. */
  declaredSize: number;
  crc?: number;
}

/**
 * A raw deflate stream that inflates to `mib` MiB of zeros from about a thousandth of that: one compressed
 * MiB of zeros ending on a byte boundary (sync flush, not final), repeated, then an empty final block. Each
 * copy refers back only inside itself, so the repeats are a valid stream.
 */
export function zerosDeflated(mib: number): Buffer {
  const one = deflateRawSync(Buffer.alloc(1024 * 1024), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  return Buffer.concat([...Array.from({ length: mib }, () => one), Buffer.from([0x03, 0x00])]);
}

/** A zip archive of the parts as given, headers written by hand so they can lie (no ZIP64: sizes < 4 GiB). */
export function writeZip(parts: ZipPart[]): Buffer {
  const out: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(p.crc ?? 0, 14);
    local.writeUInt32LE(p.data.length, 18);
    local.writeUInt32LE(p.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    local.copy(header, 8, 6, 28);
    header.writeUInt32LE(offset, 42);
    out.push(local, name, p.data);
    central.push(header, name);
    offset += 30 + name.length + p.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...out, directory, end]);
}

const CONTENT_TYPES =
  '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';

/**
 * XLSX-shaped zip bombs, about 1 MiB each: a worksheet that inflates to 1 GiB of zeros, its headers honest
 * (`declared`) or claiming 4 KiB (`lying`); and `entries`: more entries than the guard allows.
 */
export function xlsxBomb(kind: 'declared' | 'lying' | 'entries'): Buffer {
  const small = deflateRawSync(Buffer.from(CONTENT_TYPES));
  const head: ZipPart = {
    name: '[Content_Types].xml',
    data: small,
    declaredSize: CONTENT_TYPES.length,
    crc: crc32(CONTENT_TYPES),
  };
  if (kind === 'entries') {
    const empty = deflateRawSync(Buffer.alloc(0));
    return writeZip([
      head,
      ...Array.from({ length: 10_001 }, (_, i) => ({ name: `x/${i}`, data: empty, declaredSize: 0 })),
    ]);
  }
  const sheet = zerosDeflated(1024);
  const declaredSize = kind === 'declared' ? 1024 * 1024 * 1024 : 4096;
  return writeZip([head, { name: 'xl/worksheets/sheet1.xml', data: sheet, declaredSize }]);
}
