import ExcelJS from 'exceljs';
import { randomBytes } from 'node:crypto';
import { crc32, deflateRawSync } from 'node:zlib';
import { loadWorkbook } from '../../platform/xlsxReader';
import { DEFAULT_ZIP_LIMITS, guardZip, ZipRefused } from '../../platform/zipGuard';
import { costRatio } from '../helpers/cost';
import { writeZip, xlsxBomb, zerosDeflated } from '../helpers/zipBomb';

/** Runs the guard, answering what it refused with, or `passed`. */
async function verdict(bytes: Buffer, limits = DEFAULT_ZIP_LIMITS): Promise<{ message: string }> {
  try {
    await guardZip(bytes, limits);
    return { message: 'passed' };
  } catch (err) {
    expect(err).toBeInstanceOf(ZipRefused);
    return { message: (err as Error).message };
  }
}

/**
 * An honest archive as large as a bomb (1 MiB that does not compress, so inflating it reads 1 MiB): refusing a
 * bomb costs no more than passing this, while inflating the bomb's gigabyte would cost a thousand times more.
 */
function honestOfBombSize(): Buffer {
  const bytes = randomBytes(1024 * 1024);
  return writeZip([{ name: 'a.bin', data: deflateRawSync(bytes), declaredSize: bytes.length, crc: crc32(bytes) }]);
}
const HONEST = honestOfBombSize();
/** Refusing costs about what the honest archive costs (1×); room for a busy machine, none for inflating. */
const GUARD_BOUND = 10;
const guardCost = (bomb: Buffer) =>
  costRatio(
    () => verdict(bomb),
    () => verdict(HONEST),
  );

// The zip guard every XLSX reader goes through (platform/zipGuard.ts, docs/api/limits.md).
describe('zip guard', () => {
  it('refuses a 1 MiB worksheet that declares 1 GiB, at once', async () => {
    const bomb = xlsxBomb('declared');
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const { message } = await verdict(bomb);
    expect(message).toMatch(/sheet1\.xml inflates/);
    expect(await guardCost(bomb)).toBeLessThan(GUARD_BOUND);
  });

  it('stops inflating a worksheet whose headers claim 4 KiB, without holding what it inflated', async () => {
    const rss = process.memoryUsage().rss;
    const { message } = await verdict(xlsxBomb('lying'));
    expect(message).toMatch(/sheet1\.xml inflates past the 4096 bytes its headers declare/);
    expect(process.memoryUsage().rss - rss).toBeLessThan(100 * 1024 * 1024);
    expect(await guardCost(xlsxBomb('lying'))).toBeLessThan(GUARD_BOUND);
  });

  it('holds the ratio, the per-entry and the total limits', async () => {
    const zeros = (mib: number, name = 'a') => {
      const size = mib * 1024 * 1024;
      return { name, data: zerosDeflated(mib), declaredSize: size, crc: crc32(Buffer.alloc(size)) };
    };
    expect((await verdict(writeZip([zeros(2)]))).message).toMatch(/a inflates more than 100 times/);
    const loose = { ...DEFAULT_ZIP_LIMITS, maxRatio: 10_000, maxEntryBytes: 3 * 1024 * 1024 };
    expect((await verdict(writeZip([zeros(4)]), loose)).message).toMatch(/a inflates past 3 MiB/);
    const total = { ...loose, maxInflatedBytes: 5 * 1024 * 1024 };
    const three = [zeros(2, 'a'), zeros(2, 'b'), zeros(2, 'c')];
    expect((await verdict(writeZip(three), total)).message).toMatch(/inflates past 5 MiB in all/);
  });

  it('refuses too many entries, and bytes that are not a zip', async () => {
    expect((await verdict(xlsxBomb('entries'))).message).toMatch(/more than 10000 entries/);
    expect((await verdict(Buffer.from('name,city\nAda,London\n'))).message).toMatch(/Not a readable zip/);
  });

  it('passes a real workbook through, and a reader of what it answers sees the same cells', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Orders').addRows([
      ['id', 'item'],
      [1, 'apple'],
    ]);
    const guarded = await guardZip(Buffer.from(await wb.xlsx.writeBuffer()), DEFAULT_ZIP_LIMITS);
    const read = await loadWorkbook(guarded);
    expect(read.getWorksheet('Orders')?.getRow(2).values).toEqual([undefined, 1, 'apple']);
  });

  it('hands on only the entries of the central directory', async () => {
    const part = (name: string, text: string) => ({
      name,
      data: deflateRawSync(Buffer.from(text)),
      declaredSize: text.length,
      crc: crc32(text),
    });
    const hidden = writeZip([part('hidden.xml', '<x/>')]);
    const visible = writeZip([part('ok.xml', '<y/>')]);
    // the hidden entry's local header and data stand before the visible archive, in no directory
    const local = hidden.subarray(0, hidden.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])));
    const shifted = Buffer.from(visible);
    const cdOffset = shifted.readUInt32LE(shifted.length - 6);
    shifted.writeUInt32LE(cdOffset + local.length, shifted.length - 6);
    const dir = shifted.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    shifted.writeUInt32LE(local.length, dir + 42);
    const out = await guardZip(Buffer.concat([local, shifted]), DEFAULT_ZIP_LIMITS);
    expect(out.includes(Buffer.from('hidden.xml'))).toBe(false);
    expect(out.includes(Buffer.from('ok.xml'))).toBe(true);
  });
});
