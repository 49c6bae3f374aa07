import type { DataConverter, Payload, PayloadCodec } from '@temporalio/common';
import { allKeys, derivedKey, gcmOpen, gcmSeal, SecretError, type SecretKey, type SecretKeyRing } from './secrets';

/**
 * Temporal payloads (workflow and activity inputs and results, signals, queries, memos) encrypted before they
 * leave the process, so Temporal's history holds no run input or message text in the clear
 * (docs/architecture.md, "Secrets"). AES-256-GCM under a key derived from the `SVC_SECRETS_KEY` ring; the
 * payload's metadata carries `encoding: binary/encrypted` and the key id, and the sealed bytes are the
 * original payload (its metadata and data). Decoding passes through every payload that is not encrypted, so
 * histories recorded before the codec, and the replay fixtures, still read.
 */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
const KEY_ID = 'encryption-key-id';
const PURPOSE = 'svc temporal payloads';
// Bound into every payload so a sealed payload cannot pass for a secret at rest, or the other way round.
const AD = Buffer.from(PURPOSE, 'utf8');

const utf8 = (s: string) => new TextEncoder().encode(s);

/** The original payload as bytes: 4-byte length of its metadata as JSON (base64 values), the JSON, the data. */
function frame(payload: Payload): Buffer {
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(payload.metadata ?? {})) metadata[k] = Buffer.from(v).toString('base64');
  const meta = Buffer.from(JSON.stringify(metadata), 'utf8');
  const head = Buffer.alloc(4);
  head.writeUInt32BE(meta.length);
  return Buffer.concat([head, meta, Buffer.from(payload.data ?? new Uint8Array())]);
}

function unframe(bytes: Buffer): Payload {
  const length = bytes.readUInt32BE(0);
  const metadata = JSON.parse(bytes.subarray(4, 4 + length).toString('utf8')) as Record<string, string>;
  return {
    metadata: Object.fromEntries(
      Object.entries(metadata).map(([k, v]) => [k, new Uint8Array(Buffer.from(v, 'base64'))]),
    ),
    data: new Uint8Array(bytes.subarray(4 + length)),
  };
}

/** The codec over `ring`: encodes under the current key, decodes under any key of the ring. */
export function createPayloadCodec(ring: SecretKeyRing): PayloadCodec {
  const current = derivedKey(ring.current, PURPOSE);
  const keys = new Map<string, SecretKey>(allKeys(ring).map((k) => [k.kid, derivedKey(k, PURPOSE)]));
  return {
    // async, so a payload that does not decode rejects the call rather than throwing from it
    async encode(payloads) {
      return await Promise.resolve(
        payloads.map((payload) => {
          const { iv, body, tag } = gcmSeal(current.key, frame(payload), AD);
          return {
            metadata: { encoding: utf8(ENCRYPTED_ENCODING), [KEY_ID]: utf8(current.kid) },
            data: new Uint8Array(Buffer.concat([iv, tag, body])),
          };
        }),
      );
    },
    async decode(payloads) {
      return await Promise.resolve(
        payloads.map((payload) => {
          const encoding = payload.metadata?.encoding;
          if (!encoding || Buffer.from(encoding).toString('utf8') !== ENCRYPTED_ENCODING) return payload;
          const kidBytes = payload.metadata?.[KEY_ID];
          const kid = kidBytes ? Buffer.from(kidBytes).toString('utf8') : '';
          const key = keys.get(kid);
          if (!key) throw new SecretError(`payload encrypted under key ${kid}, which is not configured`);
          const data = Buffer.from(payload.data ?? new Uint8Array());
          if (data.length < 28) throw new SecretError('malformed encrypted payload');
          return unframe(gcmOpen(key.key, data.subarray(0, 12), data.subarray(28), data.subarray(12, 28), AD));
        }),
      );
    },
  };
}

/**
 * The data converter every Temporal client and worker of the service uses (platform/temporal.ts, worker/main.ts):
 * the payload codec when a key is configured, Temporal's default otherwise (development without a key).
 */
export function temporalDataConverter(ring: SecretKeyRing | undefined): DataConverter {
  return ring ? { payloadCodecs: [createPayloadCodec(ring)] } : {};
}
