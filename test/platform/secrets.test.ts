import { createCipheriv, randomBytes } from 'node:crypto';
import type { Payload } from '@temporalio/common';
import { loadConfig } from '../../platform/config';
import { createPayloadCodec, ENCRYPTED_ENCODING } from '../../platform/payloadCodec';
import { createSecretBox, keyId, parseKeyRing, parseSecretsKey } from '../../platform/secrets';

// Secrets at rest and the payload codec (platform/secrets.ts, platform/payloadCodec.ts, docs/architecture.md).
describe('secret box', () => {
  const keyA = randomBytes(32).toString('base64');
  const keyB = randomBytes(32).toString('base64');
  const ringA = parseKeyRing(keyA);
  const slot = { table: 'webhook_subscriptions', id: 'row-1', column: 'secret' };

  /** What the earlier release stored: `v1.<iv>.<tag>.<ct>`, no key id, nothing bound. */
  const legacySeal = (key: Buffer, text: string) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  };

  it('seals with the key id and a fresh IV each time, and opens it again', () => {
    const box = createSecretBox(ringA);
    const a = box.seal('hunter2-password', slot);
    const b = box.seal('hunter2-password', slot);
    expect(a).not.toBe(b);
    expect(a).not.toContain('hunter2');
    expect(a.startsWith(`v2.${keyId(parseSecretsKey(keyA))}.`)).toBe(true);
    expect(a.split('.')).toHaveLength(5);
    expect(box.open(a, slot)).toBe('hunter2-password');
    expect(box.open(box.seal('', slot), slot)).toBe('');
    expect(box.state(a)).toBe('current');
  });

  it('binds the value to its row and column: moved anywhere else it does not open', () => {
    const box = createSecretBox(ringA);
    const sealed = box.seal('secret', slot);
    expect(() => box.open(sealed, { ...slot, id: 'row-2' })).toThrow('does not open');
    expect(() => box.open(sealed, { ...slot, column: 'other' })).toThrow('does not open');
    expect(() => box.open(sealed, { ...slot, table: 'output_connections' })).toThrow('does not open');
  });

  it('refuses a truncated or altered tag, another key, and anything malformed', () => {
    const box = createSecretBox(ringA);
    const sealed = box.seal('secret', slot);
    const parts = sealed.split('.');
    const tag = Buffer.from(parts[4], 'base64url');
    for (const short of [tag.subarray(0, 12), tag.subarray(0, 4)]) {
      expect(() => box.open([...parts.slice(0, 4), short.toString('base64url')].join('.'), slot)).toThrow();
    }
    tag[0] ^= 1;
    expect(() => box.open([...parts.slice(0, 4), tag.toString('base64url')].join('.'), slot)).toThrow();
    expect(() => createSecretBox(parseKeyRing(keyB)).open(sealed, slot)).toThrow('not configured');
    expect(() => box.open(`${sealed}.x`, slot)).toThrow('malformed');
    expect(() => box.open('plain text', slot)).toThrow('not a sealed secret');
    expect(() => createSecretBox(undefined).seal('x', slot)).toThrow('SVC_SECRETS_KEY');
  });

  it('opens what an earlier key sealed while that key is listed, and the legacy formats until rotation', () => {
    const underA = createSecretBox(ringA).seal('old secret', slot);
    const rotated = createSecretBox(parseKeyRing(keyB, keyA));
    expect(rotated.state(underA)).toBe('old-key');
    expect(rotated.open(underA, slot)).toBe('old secret');
    expect(() => createSecretBox(parseKeyRing(keyB)).open(underA, slot)).toThrow('not configured');

    const legacy = legacySeal(parseSecretsKey(keyA), 'legacy password');
    expect(rotated.state(legacy)).toBe('legacy');
    expect(rotated.open(legacy, slot)).toBe('legacy password');
    expect(rotated.state('a plaintext secret')).toBe('plaintext');
    expect(rotated.open('a plaintext secret', slot, { legacyPlaintext: true })).toBe('a plaintext secret');
  });

  it('reads the keys once from the environment, named when malformed, required in production', () => {
    const key = parseSecretsKey(keyA);
    expect(parseSecretsKey(key.toString('hex'))).toEqual(key);
    expect(() => parseSecretsKey('short')).toThrow('32 bytes');
    expect(() => loadConfig({ SVC_SECRETS_KEY: 'short' })).toThrow('SVC_SECRETS_KEY');
    expect(() => loadConfig({ SVC_SECRETS_KEY: keyA, SVC_SECRETS_KEYS: `${keyB},short` })).toThrow('SVC_SECRETS_KEYS');
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow('SVC_SECRETS_KEY: required');
    expect(() => loadConfig({ SVC_CODEC_TOKEN: 'short' })).toThrow('SVC_CODEC_TOKEN');
    const config = loadConfig({ NODE_ENV: 'production', SVC_SECRETS_KEY: keyA, SVC_SECRETS_KEYS: `${keyB}, ${keyA}` });
    expect(config.secretKeys?.current.key).toEqual(key);
    expect(config.secretKeys?.previous.map((k) => k.kid)).toEqual([keyId(parseSecretsKey(keyB))]);
    expect(config.temporal.payloadKeys).toBe(config.secretKeys);
    expect(loadConfig({}).secretKeys).toBeUndefined();
  });
});

describe('payload codec', () => {
  const ringA = parseKeyRing(randomBytes(32).toString('base64'));
  const json = (value: unknown): Payload => ({
    metadata: { encoding: new TextEncoder().encode('json/plain') },
    data: new TextEncoder().encode(JSON.stringify(value)),
  });

  it('encrypts every payload with the key id in its metadata and decodes it back', async () => {
    const codec = createPayloadCodec(ringA);
    const original = [json({ input: 'the customer said: my card is 4111' }), { metadata: {}, data: new Uint8Array() }];
    const encoded = await codec.encode(original);
    expect(Buffer.from(encoded[0].metadata!.encoding!).toString()).toBe(ENCRYPTED_ENCODING);
    expect(Buffer.from(encoded[0].metadata!['encryption-key-id']!).toString()).toBe(ringA.current.kid);
    expect(Buffer.from(encoded[0].data!).toString('latin1')).not.toContain('4111');
    const decoded = await codec.decode(encoded);
    expect(decoded.map((p) => Buffer.from(p.data!).toString())).toEqual(
      original.map((p) => Buffer.from(p.data!).toString()),
    );
    expect(Buffer.from(decoded[0].metadata!.encoding!).toString()).toBe('json/plain');
  });

  it('passes payloads that are not encrypted through, and decodes under an earlier key of the ring', async () => {
    const plain = json({ recorded: 'before the codec' });
    expect(await createPayloadCodec(ringA).decode([plain])).toEqual([plain]);
    const [underA] = await createPayloadCodec(ringA).encode([plain]);
    const ringB = parseKeyRing(randomBytes(32).toString('base64'), ringA.current.key.toString('base64'));
    expect(Buffer.from((await createPayloadCodec(ringB).decode([underA]))[0].data!)).toEqual(Buffer.from(plain.data!));
    await expect(createPayloadCodec(parseKeyRing(randomBytes(32).toString('base64'))).decode([underA])).rejects.toThrow(
      'not configured',
    );
  });
});
