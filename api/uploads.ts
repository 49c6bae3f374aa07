import { PassThrough } from 'node:stream';
import { parse as parseMediaType } from 'content-type';
import type { AppContext } from './context';
import { ApiError, errors } from '../domain/errors';
import { filenameProblem } from '../domain/files/names';
import { StorageLimitError } from '../platform/storage/errors';
import type { PutResult, Storage } from '../platform/storage/storage';

// Moving bytes between HTTP and storage: uploads in (raw here, multipart in ./multipart.ts; streamed,
// size-limited), downloads out.

// Form fields are small (a folder id); the multipart envelope around the file is allowed this much on
// top of the file limit when judging Content-Length up front. The file itself is held to the exact limit.
export const MAX_FIELDS_BYTES = 64 * 1024;
const MULTIPART_SLACK = MAX_FIELDS_BYTES + 16 * 1024;
// Printable ASCII only, since the media type is sent back as a header on download.
const PRINTABLE = /^[\x20-\x7e]+$/;

/**
 * 413 `payload_too_large` (docs/api/errors.md). `Connection: close` because the rest of an oversized body
 * is not worth reading: Node closes the socket once this answer is sent.
 */
export function uploadTooLarge(maxBytes: number): ApiError {
  return new ApiError(
    'payload_too_large',
    `Upload is larger than ${maxBytes} bytes`,
    { limitBytes: maxBytes },
    { Connection: 'close' },
  );
}

export const invalid = (path: string, message: string) => errors.validation([{ path, message }]);

/**
 * The media type as given (trimmed) when it is a well-formed RFC 7231 `type/subtype` with optional
 * parameters, else null. Parsed by the `content-type` package, which runs in linear time: a regular
 * expression with nested repetition here once took exponential time on `a/b;a="";a="";…x`.
 */
export function checkMime(value: string | null | undefined): string | null {
  const mime = value?.trim() ?? '';
  if (mime.length > 255 || !PRINTABLE.test(mime)) return null;
  try {
    parseMediaType(mime);
    return mime;
  } catch {
    return null;
  }
}

/**
 * Checks what can be judged before reading a byte: the declared length against the limit (413 up
 * front), the media type (415 when absent or malformed) and, for a raw body, that one is announced.
 * @returns which of the two upload forms (docs/api/files.md) the request uses
 */
export function uploadKind(ctx: AppContext, maxBytes: number): 'raw' | 'multipart' {
  const multipart = Boolean(ctx.is('multipart/form-data'));
  const declared = ctx.get('Content-Length') === '' ? null : Number(ctx.get('Content-Length'));
  const allowed = maxBytes + (multipart ? MULTIPART_SLACK : 0);
  if (declared !== null && declared > allowed) throw uploadTooLarge(maxBytes);
  if (multipart) return 'multipart';
  if (!checkMime(ctx.get('Content-Type'))) {
    throw errors.unsupportedMediaType('raw file (with its media type as Content-Type) or multipart/form-data');
  }
  const empty = declared === 0 || (declared === null && !ctx.get('Transfer-Encoding'));
  if (empty) throw invalid('body', 'The file is empty');
  return 'raw';
}

/**
 * The name and media type of a raw upload: `X-Filename` is URL-decoded (non-ASCII names cannot travel
 * in a header otherwise). A name that is not valid percent-encoding is taken as sent, because the
 * client package sends printable-ASCII names such as `100%.txt` unencoded.
 * @throws {ApiError} 400 `validation_error` for a missing or invalid name
 */
export function rawFileMeta(ctx: AppContext): { filename: string; mime: string } {
  const header = ctx.get('X-Filename');
  if (!header) throw invalid('X-Filename', 'Required: the file name, URL-encoded');
  let filename = header;
  try {
    filename = decodeURIComponent(header);
  } catch {
    // not percent-encoding: keep the header as sent
  }
  const problem = filenameProblem(filename);
  if (problem) throw invalid('X-Filename', problem);
  return { filename, mime: checkMime(ctx.get('Content-Type'))! };
}

/**
 * Streams a raw request body into storage under `key`, with the limit enforced while streaming.
 * On failure nothing is stored and the rest of the body is discarded.
 * @throws {ApiError} 413 over `maxBytes`, 400 for an empty or interrupted body
 */
export async function receiveRaw(ctx: AppContext, storage: Storage, key: string, maxBytes: number): Promise<PutResult> {
  const req = ctx.req;
  // Our own stream between the request and storage: storage destroys its source on failure, and
  // destroying the request would drop the connection before the 413 could be sent.
  const body = new PassThrough();
  const interrupted = () => {
    if (!req.complete) body.destroy(new Error('request interrupted'));
  };
  req.once('error', interrupted).once('close', interrupted);
  req.pipe(body);
  try {
    const stored = await storage.put(key, body, { maxBytes });
    if (stored.size > 0) return stored;
    await storage.delete(key);
    throw invalid('body', 'The file is empty');
  } catch (err) {
    req.unpipe(body);
    req.resume();
    if (err instanceof ApiError) throw err;
    if (err instanceof StorageLimitError) throw uploadTooLarge(maxBytes);
    if (!req.complete) throw invalid('body', 'The upload was interrupted');
    throw err;
  } finally {
    req.off('error', interrupted).off('close', interrupted);
  }
}

/** RFC 6266: a plain-ASCII fallback name plus the exact name as RFC 5987 `filename*`. */
function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const hex = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
  const exact = encodeURIComponent(filename).replace(/['()*]/g, hex);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

/**
 * Streams a stored object as the response (`GET /v1/files/{id}/content`): its stored Content-Type and exact
 * length, as an attachment under its name.
 * @throws {StorageNotFoundError} when the bytes are missing (a 500: the row promised them)
 */
export async function sendStored(
  ctx: AppContext,
  storage: Storage,
  file: { storageKey: string; mime: string; size: number; filename: string },
): Promise<void> {
  ctx.body = await storage.get(file.storageKey);
  // After the body: Koa would otherwise replace the type with application/octet-stream.
  ctx.set('Content-Type', file.mime);
  ctx.length = file.size;
  ctx.set('Content-Disposition', contentDisposition(file.filename));
  // The bytes are the caller's, not ours: a browser must not sniff them into HTML or script.
  ctx.set('X-Content-Type-Options', 'nosniff');
}
