/**
 * The client's pure-TypeScript SHA-256 and HMAC-SHA256 (used by `verifyWebhookSignature`) against
 * node:crypto on many inputs around the block boundaries, and against the published test vectors.
 */
import { createHash, createHmac } from 'node:crypto';
import { hmacSha256, sha256 } from '../../client/src/sha256.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const ascii = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
const filled = (length: number, byte: number) => new Uint8Array(length).fill(byte);

/** Deterministic bytes (xorshift32), so a failure names inputs that can be reproduced. */
function bytesFrom(seed: number, length: number): Uint8Array {
  let x = seed || 1;
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Key lengths around the 64-byte block: empty, short, one block, longer (hashed first), several blocks. */
const KEY_LENGTHS = [0, 1, 16, 32, 55, 56, 63, 64, 65, 100, 128, 129, 200];

describe('sha256', () => {
  it('matches the FIPS 180-2 / NIST examples', () => {
    expect(hex(sha256(ascii('')))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(sha256(ascii('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256(ascii('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(
      hex(
        sha256(
          ascii(
            'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
          ),
        ),
      ),
    ).toBe('cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1');
    expect(hex(sha256(filled(1_000_000, 0x61)))).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    );
  });

  it('equals createHash for every length 0..300 (one, two and several blocks, every padding case)', () => {
    const mismatches: number[] = [];
    for (let length = 0; length <= 300; length++) {
      const data = bytesFrom(length + 1, length);
      if (hex(sha256(data)) !== createHash('sha256').update(data).digest('hex')) mismatches.push(length);
    }
    expect(mismatches).toEqual([]);
  });

  it('hashes the concatenation of its parts, however the bytes are split', () => {
    const data = bytesFrom(7, 300);
    const expected = createHash('sha256').update(data).digest('hex');
    const splits: Array<[number, number]> = [];
    for (let a = 0; a <= 300; a += 7) for (const b of [a, a + 1, a + 63, a + 64, a + 65, 300]) splits.push([a, b]);
    const wrong = splits.filter(([a, b]) => {
      const end = Math.min(b, 300);
      return hex(sha256(data.subarray(0, a), data.subarray(a, end), data.subarray(end))) !== expected;
    });
    expect(wrong).toEqual([]);
  });
});

describe('hmacSha256', () => {
  it('matches the RFC 4231 HMAC-SHA256 test vectors', () => {
    const key4 = new Uint8Array(25).map((_, i) => i + 1);
    const cases: Array<[string, Uint8Array, Uint8Array, string]> = [
      ['1', filled(20, 0x0b), ascii('Hi There'), 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'],
      [
        '2',
        ascii('Jefe'),
        ascii('what do ya want for nothing?'),
        '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
      ],
      ['3', filled(20, 0xaa), filled(50, 0xdd), '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe'],
      ['4', key4, filled(50, 0xcd), '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b'],
      [
        '6',
        filled(131, 0xaa),
        ascii('Test Using Larger Than Block-Size Key - Hash Key First'),
        '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
      ],
      [
        '7',
        filled(131, 0xaa),
        ascii(
          'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.',
        ),
        '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
      ],
    ];
    for (const [name, key, data, mac] of cases) expect([name, hex(hmacSha256(key, data))]).toEqual([name, mac]);
    // test case 5 checks a MAC truncated to 128 bits
    expect(hex(hmacSha256(filled(20, 0x0c), ascii('Test With Truncation'))).slice(0, 32)).toBe(
      'a3b6167473100ee06e0c796c2955552b',
    );
  });

  it('equals createHmac for data of 0..300 bytes under keys of 0..200 bytes', () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (const keyLength of KEY_LENGTHS) {
      const key = bytesFrom(1000 + keyLength, keyLength);
      for (let length = 0; length <= 300; length++) {
        const data = bytesFrom(keyLength * 1000 + length + 1, length);
        const expected = createHmac('sha256', key).update(data).digest('hex');
        if (hex(hmacSha256(key, data)) !== expected) mismatches.push(`key ${keyLength} B, data ${length} B`);
        checked++;
      }
    }
    expect(checked).toBe(KEY_LENGTHS.length * 301);
    expect(mismatches).toEqual([]);
  });

  it('equals createHmac on random inputs, given in parts like the webhook signature (`${t}.` + body)', () => {
    const sizes = bytesFrom(0x5eed, 1000);
    const mismatches: string[] = [];
    for (let i = 0; i < 500; i++) {
      const keyLength = sizes[2 * i]!; // 0..255
      const length = Math.round((sizes[2 * i + 1]! / 255) * 300); // 0..300
      const key = bytesFrom(5000 + i, keyLength);
      const prefix = ascii(`${1_700_000_000 + i}.`);
      const body = bytesFrom(9000 + i, length);
      const expected = createHmac('sha256', key).update(prefix).update(body).digest('hex');
      if (hex(hmacSha256(key, prefix, body)) !== expected) mismatches.push(`#${i}: key ${keyLength} B, ${length} B`);
    }
    expect(mismatches).toEqual([]);
  });

  it('agrees with createHmac on a string secret encoded as UTF-8, as the service signs', () => {
    const secret = 'whsec_é_ünïcødé_0123456789_'.repeat(4); // > 64 bytes once encoded
    const body = '{"id":"d1","run":{"output":"日本語"}}';
    const mac = hmacSha256(new TextEncoder().encode(secret), new TextEncoder().encode(`1700000000.${body}`));
    expect(hex(mac)).toBe(createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex'));
  });
});
