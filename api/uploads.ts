import { PassThrough, Writable } from 'node:stream';
import { parse as parseMediaType } from 'content-type';
import { koaBody } from 'koa-body';
import type { AppContext } from './context';
import { ApiError, errors } from '../domain/errors';
import { filenameProblem } from '../domain/files/names';
import { StorageLimitError } from '../platform/storage/errors';
import type { PutResult, Storage } from '../platform/storage/storage';

// Moving bytes between HTTP and storage: uploads in (raw or multipart, streamed, size-limited), downloads out.

/** An upload that reached storage, with the name and media type the caller gave it. */
export interface ReceivedUpload extends PutResult {
  filename: string;
  mime: string;
  /** The text fields of the multipart body (`folderId`). */
  fields: Record<string, unknown>;
}

// Form fields are small (a folder id); the multipart envelope around the file is allowed this much on
// top of the file limit when judging Content-Length up front. The file itself is held to the exact limit.
const MAX_FIELDS_BYTES = 64 * 1024;
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

const invalid = (path: string, message: string) => errors.validation([{ path, message }]);

/**
 * The media type as given (trimmed) when it is a well-formed RFC 7231 `type/subtype` with optional
 * parameters, else null. Parsed by the `content-type` package, which runs in linear time: a regular
 * expression with nested repetition here once took exponential time on `a/b;a="";a="";…x`.
 */
function checkMime(value: string | null | undefined): string | null {
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

/** One file part of a multipart body, streamed into storage under `key` (bytes not yet checked). */
export interface ReceivedPart extends PutResult {
  /** The part's name (its form field). */
  field: string;
  key: string;
  /** As sent; null when the part had no filename. */
  filename: string | null;
  /** As sent; null when absent. */
  mime: string | null;
}

/** How `receiveParts` treats a multipart body. */
export interface PartsSpec {
  /** Each file's limit (413 over it). */
  maxBytes: number;
  /** All files' bytes together (413 over it). */
  maxTotalBytes: number;
  /** More file parts than this are refused (`tooMany`). */
  maxFiles: number;
  /** Whether a file part named `name` is taken; one that is not is skipped (its bytes go nowhere). */
  accept: (name: string) => boolean;
  /** The storage key for a taken file part named `name`, asked once per part. */
  keyFor: (name: string) => string;
  /** Empty files: refused (`/v1/files`) or dropped as not sent (a browser's unpicked file input). */
  emptyFiles: 'refuse' | 'drop';
  /** The 400 for a body with more than `maxFiles` file parts. */
  tooMany: () => ApiError;
}

/** What `receiveParts` read: the stored files in body order, the text fields, the names of skipped parts. */
export interface ReceivedParts {
  files: ReceivedPart[];
  fields: Record<string, unknown>;
  skipped: string[];
}

/** Deletes the bytes of received parts (a refused submission stores nothing). */
export async function discardParts(storage: Storage, files: Array<{ key: string }>): Promise<void> {
  await Promise.all(files.map((f) => storage.delete(f.key).catch(() => undefined)));
}

/**
 * Parses a `multipart/form-data` body with koa-body's formidable, streaming each file part straight into
 * storage under the key `spec.keyFor` gives it (never to a temporary upload dir, never whole in memory),
 * each held to `maxBytes` while streaming and all together to `maxTotalBytes`. On failure nothing is stored.
 * @throws {ApiError} 413 over a limit, 400 `validation_error` for too many file parts, an empty file
 *   (`emptyFiles: 'refuse'`) or a malformed body
 */
export async function receiveParts(ctx: AppContext, storage: Storage, spec: PartsSpec): Promise<ReceivedParts> {
  const pending: Array<{ part: Omit<ReceivedPart, keyof PutResult>; stored: Promise<PutResult> }> = [];
  const skipped: string[] = [];
  const drop = spec.emptyFiles === 'drop';
  const parse = koaBody({
    multipart: true,
    json: false,
    urlencoded: false,
    text: false,
    formidable: {
      maxFiles: spec.maxFiles,
      maxFileSize: spec.maxBytes,
      maxTotalFileSize: spec.maxTotalBytes,
      maxFields: 20,
      maxFieldsSize: MAX_FIELDS_BYTES,
      ...(drop ? { allowEmptyFiles: true, minFileSize: 0 } : {}),
      // Parts without a key are skipped, not stored.
      filter: (p) => {
        const wanted = p.name !== null && spec.accept(p.name);
        if (!wanted) skipped.push(p.name ?? '');
        return wanted;
      },
      fileWriteStreamHandler: (file) => {
        // maxFiles makes formidable fail on one file too many; its bytes go nowhere meanwhile.
        if (pending.length >= spec.maxFiles) return new Writable({ write: (_chunk, _enc, done) => done() });
        const info = file?.toJSON();
        const field = (file as unknown as { _svcField?: string })?._svcField ?? '';
        const key = spec.keyFor(field);
        const stream = new PassThrough();
        // formidable destroys every open file on any failure, one it already ended too; a source ended but not
        // yet read, then destroyed without an error, leaves storage's pipeline waiting forever (Node 20). With an
        // error it fails. A source storage has read to its end is left to close as usual.
        const destroy = stream.destroy.bind(stream);
        stream.destroy = (err?: Error) =>
          destroy(err ?? (stream.readableEnded ? undefined : new Error('upload abandoned')));
        const stored = storage.put(key, stream, { maxBytes: spec.maxBytes });
        // Awaited below on every path; this only keeps an early failure from being "unhandled".
        stored.catch(() => undefined);
        pending.push({
          part: { field, key, filename: info?.originalFilename ?? null, mime: info?.mimetype ?? null },
          stored,
        });
        return stream;
      },
      // Runs just before the stream handler: the file object alone does not know its part's name.
      onFileBegin: (name, file) => {
        (file as unknown as { _svcField?: string })._svcField = name;
      },
    },
  });
  const settled = () => Promise.all(pending.map((p) => p.stored.then((s) => ({ ...p.part, ...s }))));
  let files: ReceivedPart[];
  try {
    await parse(ctx as never, async () => undefined);
    files = await settled();
  } catch (err) {
    // Wait for storage to settle so nothing (not even a temporary file) outlives the response.
    await Promise.all(
      pending.map((p) =>
        p.stored.then(
          () => storage.delete(p.part.key),
          () => undefined,
        ),
      ),
    );
    ctx.req.resume();
    throw multipartError(err, spec);
  }
  if (drop) {
    const empty = files.filter((f) => f.size === 0);
    await discardParts(storage, empty);
    files = files.filter((f) => f.size > 0);
  }
  const fields = (ctx.request.body ?? {}) as Record<string, unknown>;
  return { files, fields, skipped };
}

/**
 * Checks a received part's filename and media type.
 * @returns the name and media type, or the problem with them
 */
export function checkPart(part: ReceivedPart): { filename: string; mime: string } | { problem: string } {
  const problem = part.filename === null ? 'The file part needs a filename' : filenameProblem(part.filename);
  const mime = checkMime(part.mime);
  if (problem || !mime) return { problem: problem ?? 'The file part needs a valid Content-Type' };
  return { filename: part.filename!, mime };
}

/**
 * Parses a `multipart/form-data` upload of one file in field `file` (`/v1/files`, a data source's
 * upload) through `receiveParts`; other file parts are skipped. Text fields come back in `fields`.
 * @throws {ApiError} 413 over `maxBytes`, 400 `validation_error` for a missing, empty, extra or
 *   badly named file part or a malformed body
 */
export async function receiveMultipart(
  ctx: AppContext,
  storage: Storage,
  key: string,
  maxBytes: number,
): Promise<ReceivedUpload> {
  const { files, fields } = await receiveParts(ctx, storage, {
    maxBytes,
    maxTotalBytes: maxBytes,
    maxFiles: 1,
    accept: (name) => name === 'file',
    keyFor: () => key,
    emptyFiles: 'refuse',
    tooMany: () => invalid('file', 'Exactly one file part named "file"'),
  });
  const [part] = files;
  if (!part) throw invalid('file', 'Required: a file part named "file"');
  const checked = checkPart(part);
  if ('problem' in checked) {
    await storage.delete(key);
    throw invalid('file', checked.problem);
  }
  const { field: _field, key: _key, filename: _f, mime: _m, ...stored } = part;
  return { ...stored, ...checked, fields };
}

// formidable's error codes (formidable/src/FormidableError.js) mapped onto our error codes (docs/api/errors.md).
const TOO_LARGE = new Set([1006, 1007, 1016]);
const EMPTY = new Set([1008, 1010]);

function multipartError(err: unknown, spec: PartsSpec): Error {
  if (err instanceof ApiError) return err;
  if (err instanceof StorageLimitError) return uploadTooLarge(spec.maxBytes);
  const code = (err as { code?: unknown }).code;
  const httpCode = (err as { httpCode?: unknown }).httpCode;
  if (typeof code !== 'number' || typeof httpCode !== 'number') return err as Error;
  if (code === 1009) return uploadTooLarge(spec.maxTotalBytes);
  if (TOO_LARGE.has(code)) return uploadTooLarge(spec.maxBytes);
  if (EMPTY.has(code)) return invalid('file', 'The file is empty');
  if (code === 1015) return spec.tooMany();
  return invalid('body', `Malformed multipart body: ${(err as Error).message}`);
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
