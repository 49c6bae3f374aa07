import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { signWebhookPayload, verifyWebhookSignature } from '../../client/src/index.js';

const secret = 'whsec_0123456789abcdef';
const body =
  '{"id":"d1","type":"run.succeeded","run":{"id":"r1","status":"succeeded","output":{"a":"é"},"error":null}}';
const now = 1_700_000_000;

/** Independent reference: HMAC-SHA256 over `${t}.` followed by the raw body bytes. */
function sign(t: number | string, raw: string | Buffer, key = secret): string {
  return createHmac('sha256', key).update(`${t}.`).update(raw).digest('hex');
}
const header = (t: number | string = now, raw: string | Buffer = body, key = secret) =>
  `t=${t},v1=${sign(t, raw, key)}`;

describe('verifyWebhookSignature', () => {
  it('returns a plain boolean synchronously, never a Promise', () => {
    const ok: boolean = verifyWebhookSignature(secret, header(), body, { now });
    const bad: boolean = verifyWebhookSignature(secret, header(), `${body} `, { now });
    expect(typeof ok).toBe('boolean');
    expect(typeof bad).toBe('boolean');
    expect(ok).toBe(true);
    expect(bad).toBe(false);
    // the old async version resolved false inside a truthy Promise, so `if (!verify(...))` accepted forgeries
    expect(verifyWebhookSignature(secret, undefined, body, { now })).not.toBeInstanceOf(Promise);
    expect(typeof signWebhookPayload(secret, body, now)).toBe('string');
  });

  it('accepts string, Uint8Array, Buffer, ArrayBuffer and views into a larger buffer', () => {
    const bytes = new TextEncoder().encode(body);
    expect(verifyWebhookSignature(secret, header(), body, { now })).toBe(true);
    expect(verifyWebhookSignature(secret, header(), bytes, { now })).toBe(true);
    expect(verifyWebhookSignature(secret, header(), Buffer.from(body), { now })).toBe(true);
    expect(verifyWebhookSignature(secret, header(), bytes.buffer, { now })).toBe(true);
    // a Buffer sliced out of a pooled allocation: only its own bytes count
    const pooled = Buffer.concat([Buffer.from('xx'), Buffer.from(body), Buffer.from('yy')]);
    expect(verifyWebhookSignature(secret, header(), pooled.subarray(2, pooled.length - 2), { now })).toBe(true);
  });

  it('returns false, without throwing, for a body that is not raw (e.g. already parsed JSON)', () => {
    const parsed = JSON.parse(body) as unknown as string;
    expect(verifyWebhookSignature(secret, header(), parsed, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, header(), undefined as unknown as string, { now })).toBe(false);
    expect(() => signWebhookPayload(secret, parsed, now)).toThrow(TypeError);
  });

  it('verifies raw bytes that are not valid UTF-8 without re-encoding them', () => {
    const raw = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    expect(verifyWebhookSignature(secret, header(now, raw), raw, { now })).toBe(true);
    expect(verifyWebhookSignature(secret, header(now, raw), raw.toString('utf8'), { now })).toBe(false);
  });

  it('is order-independent, ignores unknown parts, accepts uppercase hex and defaults now to the clock', () => {
    const v1 = sign(now, body);
    expect(verifyWebhookSignature(secret, `v0=abc, v1=${v1} ,t=${now},x=1`, body, { now })).toBe(true);
    expect(verifyWebhookSignature(secret, `t=${now},v1=${v1.toUpperCase()}`, body, { now })).toBe(true);
    const fresh = Math.floor(Date.now() / 1000);
    expect(verifyWebhookSignature(secret, header(fresh), body)).toBe(true);
  });

  it('rejects a tampered body and a wrong secret', () => {
    expect(verifyWebhookSignature(secret, header(), body.replace('r1', 'r2'), { now })).toBe(false);
    expect(verifyWebhookSignature(secret, header(), JSON.stringify(JSON.parse(body), null, 1), { now })).toBe(false);
    expect(verifyWebhookSignature('another-secret-123', header(), body, { now })).toBe(false);
  });

  it('rejects a missing t or v1, and a non-integer t', () => {
    const v1 = sign(now, body);
    expect(verifyWebhookSignature(secret, `v1=${v1}`, body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, `t=${now}`, body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, '', body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, undefined, body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, null, body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, header('1.7e9'), body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, header(`${now}.5`), body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, header(`-${now}`), body, { now })).toBe(false);
  });

  it('enforces the 300 s tolerance on both sides', () => {
    expect(verifyWebhookSignature(secret, header(now - 300), body, { now })).toBe(true);
    expect(verifyWebhookSignature(secret, header(now + 300), body, { now })).toBe(true);
    expect(verifyWebhookSignature(secret, header(now - 301), body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, header(now + 301), body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, header(now - 1000), body, { now, toleranceSec: 3600 })).toBe(true);
  });

  it('rejects malformed hex and digests of another length', () => {
    const v1 = sign(now, body);
    expect(verifyWebhookSignature(secret, `t=${now},v1=${v1.slice(1)}`, body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, `t=${now},v1=${v1.slice(0, -2)}zz`, body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, `t=${now},v1=${v1.slice(0, 32)}`, body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, `t=${now},v1=${v1}00`, body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, `t=${now},v1=`, body, { now })).toBe(false);
  });

  it('signWebhookPayload produces what the reference computes', () => {
    expect(signWebhookPayload(secret, body, now)).toBe(header());
    expect(signWebhookPayload(secret, Buffer.from(body), now)).toBe(header());
  });
});

describe('verifyWebhookSignature in any runtime', () => {
  it('imports nothing but its own pure-TypeScript HMAC (no node:crypto, no Web Crypto)', () => {
    const code = (file: string) =>
      readFileSync(join(__dirname, '..', '..', 'client', 'src', file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/(?<!\/)\/\/.*$/gm, '');
    const imports = (text: string) => [...text.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports(code('webhooks.ts'))).toEqual(['./sha256.js']);
    expect(imports(code('sha256.ts'))).toEqual([]);
    for (const file of ['webhooks.ts', 'sha256.ts'])
      expect([file, code(file).match(/crypto|subtle|globalThis|process|require\(|import\(|await/g)]).toEqual([
        file,
        null,
      ]);
  });

  it('reaches the same verdicts with no global crypto and no process.versions.node', () => {
    const versions = Object.getOwnPropertyDescriptor(process, 'versions')!;
    const crypto = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
    Object.defineProperty(process, 'versions', { ...versions, value: { ...process.versions, node: undefined } });
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true, writable: true });
    try {
      let isolated!: typeof import('../../client/src/webhooks.js');
      jest.isolateModules(() => {
        isolated = require('../../client/src/webhooks.js');
      });
      expect(isolated.verifyWebhookSignature(secret, header(), Buffer.from(body), { now })).toBe(true);
      expect(isolated.verifyWebhookSignature(secret, header(), `${body} `, { now })).toBe(false);
      expect(isolated.signWebhookPayload(secret, body, now)).toBe(header());
    } finally {
      Object.defineProperty(process, 'versions', versions);
      if (crypto) Object.defineProperty(globalThis, 'crypto', crypto);
      else delete (globalThis as { crypto?: unknown }).crypto;
    }
  });
});
