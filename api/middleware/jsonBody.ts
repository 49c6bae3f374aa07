import type { IncomingMessage } from 'node:http';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Middleware } from 'koa';
import type { AppState } from '../context';
import { errors, type ValidationIssue } from '../../domain/errors';

/** The request's bytes, decoded per Content-Encoding, refused as soon as they pass `maxBytes`. */
export async function readText(req: IncomingMessage, maxBytes: number): Promise<string> {
  return (await readBytes(req, maxBytes)).toString('utf8');
}

/** As {@link readText}, the exact bytes (a signature is over the bytes, not their decoding). */
export async function readBytes(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  const decoders: Record<string, () => NodeJS.ReadWriteStream> = {
    gzip: createGunzip,
    deflate: createInflate,
    br: createBrotliDecompress,
  };
  if (encoding !== 'identity' && !decoders[encoding]) throw errors.unsupportedMediaType('application/json');
  const source: AsyncIterable<Buffer | string> = encoding === 'identity' ? req : req.pipe(decoders[encoding]!());
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of source) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > maxBytes) throw errors.payloadTooLarge(maxBytes);
      chunks.push(bytes);
    }
  } catch (err) {
    if (err instanceof Error && 'code' in err && String(err.code).startsWith('Z_')) throw errors.invalidJson();
    throw err;
  }
  return Buffer.concat(chunks);
}

// JSON.parse makes `"__proto__"` an own property, harmless until some code copies it with assignment
// (Object.assign, a merge) and so replaces a prototype; the key is dropped at the door instead, wherever it
// is nested (docs/api/errors.md).
export const dropProtoKeys = (key: string, value: unknown) => (key === '__proto__' ? undefined : value);

/** Paths of strings and keys holding U+0000, which PostgreSQL text and jsonb cannot store. */
function nulIssues(value: unknown, path: string[], out: ValidationIssue[]): ValidationIssue[] {
  if (out.length >= 10) return out;
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out.push({ path: path.join('.'), message: 'Must not contain U+0000 (NUL)' });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => nulIssues(v, [...path, String(i)], out));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('\u0000'))
        out.push({ path: [...path, k].join('.'), message: 'Keys must not contain U+0000 (NUL)' });
      nulIssues(v, [...path, k], out);
    }
  }
  return out;
}

/**
 * JSON body parsing for routes that take a JSON body. A body that is present but not JSON is 415,
 * unparsable JSON is 400 `invalid_json`, over `SVC_MAX_JSON_BYTES` is 413 `payload_too_large`, a
 * string or key holding U+0000 is 400 `validation_error`. Any JSON value is accepted here; the route's
 * schema gives a precise `validation_error` for non-objects.
 */
export function jsonBody(maxBytes: number): Middleware<AppState> {
  return async (ctx, next) => {
    const declared = Number(ctx.get('Content-Length') || 0);
    const hasBody = declared > 0 || Boolean(ctx.get('Transfer-Encoding'));
    if (!hasBody) {
      ctx.request.body = undefined;
      return next();
    }
    if (!ctx.is('application/json', '+json')) throw errors.unsupportedMediaType('application/json');
    // Refuse early on the declared length, without reading the bytes.
    if (declared > maxBytes) throw errors.payloadTooLarge(maxBytes);
    const text = await readText(ctx.req, maxBytes);
    let body: unknown;
    try {
      body = text === '' ? '' : JSON.parse(text, dropProtoKeys);
    } catch {
      throw errors.invalidJson();
    }
    const issues = nulIssues(body, [], []);
    if (issues.length) throw errors.validation(issues);
    ctx.request.body = body as typeof ctx.request.body;
    await next();
  };
}
