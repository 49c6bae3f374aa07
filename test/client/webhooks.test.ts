import { createHmac } from 'node:crypto';
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
  it('accepts string, Uint8Array and Buffer bodies', async () => {
    const bytes = new TextEncoder().encode(body);
    await expect(verifyWebhookSignature(secret, header(), body, { now })).resolves.toBe(true);
    await expect(verifyWebhookSignature(secret, header(), bytes, { now })).resolves.toBe(true);
    await expect(verifyWebhookSignature(secret, header(), Buffer.from(body), { now })).resolves.toBe(true);
    await expect(verifyWebhookSignature(secret, header(), bytes.buffer, { now })).resolves.toBe(true);
  });

  it('verifies raw bytes that are not valid UTF-8 without re-encoding them', async () => {
    const raw = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    await expect(verifyWebhookSignature(secret, header(now, raw), raw, { now })).resolves.toBe(true);
    await expect(verifyWebhookSignature(secret, header(now, raw), raw.toString('utf8'), { now })).resolves.toBe(false);
  });

  it('is order-independent, ignores unknown parts, accepts uppercase hex and defaults now to the clock', async () => {
    const v1 = sign(now, body);
    await expect(verifyWebhookSignature(secret, `v0=abc, v1=${v1} ,t=${now},x=1`, body, { now })).resolves.toBe(true);
    await expect(verifyWebhookSignature(secret, `t=${now},v1=${v1.toUpperCase()}`, body, { now })).resolves.toBe(true);
    const fresh = Math.floor(Date.now() / 1000);
    await expect(verifyWebhookSignature(secret, header(fresh), body)).resolves.toBe(true);
  });

  it('rejects a tampered body and a wrong secret', async () => {
    await expect(verifyWebhookSignature(secret, header(), body.replace('r1', 'r2'), { now })).resolves.toBe(false);
    await expect(
      verifyWebhookSignature(secret, header(), JSON.stringify(JSON.parse(body), null, 1), { now }),
    ).resolves.toBe(false);
    await expect(verifyWebhookSignature('another-secret-123', header(), body, { now })).resolves.toBe(false);
  });

  it('rejects a missing t or v1, and a non-integer t', async () => {
    const v1 = sign(now, body);
    await expect(verifyWebhookSignature(secret, `v1=${v1}`, body, { now })).resolves.toBe(false);
    await expect(verifyWebhookSignature(secret, `t=${now}`, body, { now })).resolves.toBe(false);
    await expect(verifyWebhookSignature(secret, '', body, { now })).resolves.toBe(false);
    await expect(verifyWebhookSignature(secret, undefined, body, { now })).resolves.toBe(false);
    await expect(verifyWebhookSignature(secret, header('1.7e9'), body, { now })).resolves.toBe(false);
    await expect(verifyWebhookSignature(secret, header(`${now}.5`), body, { now })).resolves.toBe(false);
    await expect(verifyWebhookSignature(secret, header(`-${now}`), body, { now })).resolves.toBe(false);
  });

  it('enforces the 300 s tolerance on both sides', async () => {
    await expect(verifyWebhookSignature(secret, header(now - 300), body, { now })).resolves.toBe(true);
    await expect(verifyWebhookSignature(secret, header(now - 301), body, { now })).resolves.toBe(false);
    await expect(verifyWebhookSignature(secret, header(now + 301), body, { now })).resolves.toBe(false);
    await expect(verifyWebhookSignature(secret, header(now - 1000), body, { now, toleranceSec: 3600 })).resolves.toBe(
      true,
    );
  });

  it('rejects malformed hex and digests of another length', async () => {
    const v1 = sign(now, body);
    await expect(verifyWebhookSignature(secret, `t=${now},v1=${v1.slice(1)}`, body, { now })).resolves.toBe(false);
    await expect(verifyWebhookSignature(secret, `t=${now},v1=${v1.slice(0, -2)}zz`, body, { now })).resolves.toBe(
      false,
    );
    await expect(verifyWebhookSignature(secret, `t=${now},v1=${v1.slice(0, 32)}`, body, { now })).resolves.toBe(false);
    await expect(verifyWebhookSignature(secret, `t=${now},v1=${v1}00`, body, { now })).resolves.toBe(false);
    await expect(verifyWebhookSignature(secret, `t=${now},v1=`, body, { now })).resolves.toBe(false);
  });

  it('signWebhookPayload produces what the reference computes', async () => {
    await expect(signWebhookPayload(secret, body, now)).resolves.toBe(header());
  });
});

describe('verifyWebhookSignature without node:crypto (browser/edge path)', () => {
  it('uses Web Crypto and reaches the same verdicts', async () => {
    const versions = Object.getOwnPropertyDescriptor(process, 'versions')!;
    Object.defineProperty(process, 'versions', { ...versions, value: { ...process.versions, node: undefined } });
    try {
      let isolated!: typeof import('../../client/src/webhooks.js');
      jest.isolateModules(() => {
        isolated = require('../../client/src/webhooks.js');
      });
      const subtleSign = jest.spyOn(globalThis.crypto.subtle, 'sign');
      await expect(isolated.verifyWebhookSignature(secret, header(), Buffer.from(body), { now })).resolves.toBe(true);
      await expect(isolated.verifyWebhookSignature(secret, header(), `${body} `, { now })).resolves.toBe(false);
      await expect(isolated.signWebhookPayload(secret, body, now)).resolves.toBe(header());
      expect(subtleSign).toHaveBeenCalled();
      subtleSign.mockRestore();
    } finally {
      Object.defineProperty(process, 'versions', versions);
    }
  });
});
