/**
 * SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104) in plain TypeScript over typed arrays.
 *
 * Synchronous and free of runtime APIs (no `node:crypto`, no Web Crypto), so webhook verification can
 * return a plain `boolean` in every runtime. Only the webhook signature uses it: a few KiB per delivery.
 */

/** Round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/** Initial hash value: the first 32 bits of the fractional parts of the square roots of the first 8 primes. */
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** Block size of SHA-256 in bytes (the HMAC key is padded or hashed to this length). */
const BLOCK = 64;

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** Processes every whole 64-byte block of `data` from `offset` into `h`; returns where it stopped. */
function compress(h: Uint32Array, w: Uint32Array, data: Uint8Array, offset: number): number {
  for (; offset + BLOCK <= data.length; offset += BLOCK) {
    for (let i = 0; i < 16; i++) {
      const j = offset + i * 4;
      w[i] = (data[j]! << 24) | (data[j + 1]! << 16) | (data[j + 2]! << 8) | data[j + 3]!;
    }
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    let a = h[0]!;
    let b = h[1]!;
    let c = h[2]!;
    let d = h[3]!;
    let e = h[4]!;
    let f = h[5]!;
    let g = h[6]!;
    let hh = h[7]!;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = h[0]! + a;
    h[1] = h[1]! + b;
    h[2] = h[2]! + c;
    h[3] = h[3]! + d;
    h[4] = h[4]! + e;
    h[5] = h[5]! + f;
    h[6] = h[6]! + g;
    h[7] = h[7]! + hh;
  }
  return offset;
}

/**
 * SHA-256 of the concatenation of `parts` (so HMAC need not copy its inputs into one buffer).
 * @returns the 32-byte digest
 */
export function sha256(...parts: Uint8Array[]): Uint8Array {
  const h = Uint32Array.from(H0);
  const w = new Uint32Array(64);
  const block = new Uint8Array(BLOCK);
  let filled = 0;
  let total = 0;
  for (const part of parts) {
    total += part.length;
    let offset = 0;
    if (filled > 0) {
      const take = Math.min(BLOCK - filled, part.length);
      block.set(part.subarray(0, take), filled);
      filled += take;
      offset = take;
      if (filled < BLOCK) continue;
      compress(h, w, block, 0);
      filled = 0;
    }
    offset = compress(h, w, part, offset);
    block.set(part.subarray(offset), 0);
    filled = part.length - offset;
  }
  // padding: 0x80, zeros, then the message length in bits as a 64-bit big-endian integer
  const tail = new Uint8Array(filled < BLOCK - 8 ? BLOCK : BLOCK * 2);
  tail.set(block.subarray(0, filled), 0);
  tail[filled] = 0x80;
  const view = new DataView(tail.buffer);
  view.setUint32(tail.length - 8, Math.floor(total / 0x20000000), false);
  view.setUint32(tail.length - 4, (total * 8) >>> 0, false);
  compress(h, w, tail, 0);
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]!, false);
  return out;
}

/**
 * HMAC-SHA256 (RFC 2104): `H((K ^ opad) || H((K ^ ipad) || data))`, a key longer than 64 bytes hashed first.
 * @returns the 32-byte MAC
 */
export function hmacSha256(key: Uint8Array, ...data: Uint8Array[]): Uint8Array {
  const padded = new Uint8Array(BLOCK);
  padded.set(key.length > BLOCK ? sha256(key) : key, 0);
  const inner = new Uint8Array(BLOCK);
  const outer = new Uint8Array(BLOCK);
  for (let i = 0; i < BLOCK; i++) {
    inner[i] = padded[i]! ^ 0x36;
    outer[i] = padded[i]! ^ 0x5c;
  }
  return sha256(outer, sha256(inner, ...data));
}
