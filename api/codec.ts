import type { PayloadCodec } from '@temporalio/common';
import type { Middleware } from 'koa';
import { z } from 'zod';
import { errors } from '../domain/errors';
import { safeEqual } from '../domain/identity/secrets';
import type { Config } from '../platform/config';
import { createPayloadCodec } from '../platform/payloadCodec';
import type { AppState } from './context';

const PATHS = new Set(['/codec/encode', '/codec/decode']);
/** What Temporal UI sends a codec server: the namespace beside the bearer token. */
const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Namespace';
/** Temporal's remote codec format: each payload's metadata values and data in base64. */
const body = z.object({
  payloads: z
    .array(z.object({ metadata: z.record(z.string(), z.string()).optional(), data: z.string().optional() }))
    .max(1000),
});

/** The origins Temporal UI is served from: `SVC_TEMPORAL_UI_URL`'s, else the dev server's own UI. */
function uiOrigins(config: Pick<Config, 'temporalUiUrl'>): Set<string> {
  if (config.temporalUiUrl) return new Set([new URL(config.temporalUiUrl).origin]);
  return new Set(['http://localhost:8233', 'http://127.0.0.1:8233']);
}

async function readJson(req: NodeJS.ReadableStream, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw errors.payloadTooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw errors.invalidJson();
  }
}

/**
 * Temporal's remote codec endpoint (docs/operations.md#codec-endpoint): `POST /codec/encode` and `/codec/decode`
 * run the service's payload codec (platform/payloadCodec.ts) for Temporal UI and `temporal workflow show
 * --codec-endpoint`, so an operator can read the encrypted history. Only with the operator's bearer token
 * (`SVC_CODEC_TOKEN`): unset, the paths do not exist (404); a missing or wrong token is 401. CORS answers the
 * Temporal UI origin only.
 */
export function codecServer(config: Pick<Config, 'codecToken' | 'temporalUiUrl' | 'secretKeys' | 'maxJsonBytes'>) {
  const token = config.codecToken;
  const codec: PayloadCodec | undefined = config.secretKeys ? createPayloadCodec(config.secretKeys) : undefined;
  const origins = uiOrigins(config);
  const middleware: Middleware<AppState> = async (ctx, next) => {
    if (!PATHS.has(ctx.path) || !token || !codec) return next();
    const origin = ctx.get('origin');
    if (origin && origins.has(origin)) {
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.set('Access-Control-Allow-Credentials', 'true');
      ctx.set('Vary', 'Origin');
    }
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'POST, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      ctx.status = 204;
      return;
    }
    if (ctx.method !== 'POST') throw errors.methodNotAllowed(ctx.method, ['POST']);
    const given = /^Bearer (.+)$/i.exec(ctx.get('authorization'))?.[1];
    if (!given || !safeEqual(given, token)) throw errors.unauthorized('Missing or invalid codec token');
    const parsed = body.safeParse(await readJson(ctx.req, config.maxJsonBytes));
    if (!parsed.success) {
      throw errors.validation(parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
    }
    const payloads = parsed.data.payloads.map((p) => ({
      metadata: Object.fromEntries(
        Object.entries(p.metadata ?? {}).map(([k, v]) => [k, new Uint8Array(Buffer.from(v, 'base64'))]),
      ),
      data: new Uint8Array(Buffer.from(p.data ?? '', 'base64')),
    }));
    let result;
    try {
      result = ctx.path === '/codec/encode' ? await codec.encode(payloads) : await codec.decode(payloads);
    } catch {
      throw errors.validation([{ path: 'payloads', message: 'A payload does not decode under any configured key' }]);
    }
    ctx.body = {
      payloads: result.map((p) => ({
        metadata: Object.fromEntries(
          Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')]),
        ),
        data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
      })),
    };
  };
  return middleware;
}
