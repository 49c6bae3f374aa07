import { PassThrough, Writable } from 'node:stream';
import { koaBody } from 'koa-body';
import type { AppContext } from './context';
import { ApiError } from '../domain/errors';
import { filenameProblem } from '../domain/files/names';
import { StorageLimitError } from '../platform/storage/errors';
import type { PutResult, Storage } from '../platform/storage/storage';
import { checkMime, invalid, MAX_FIELDS_BYTES, uploadTooLarge } from './uploads';

// multipart/form-data uploads: named file parts streamed into storage, each and all held to limits.

/** An upload that reached storage, with the name and media type the caller gave it. */
export interface ReceivedUpload extends PutResult {
  filename: string;
  mime: string;
  /** The text fields of the multipart body (`folderId`). */
  fields: Record<string, unknown>;
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
        // yet read, then destroyed without an error, leaves storage's pipeline waiting forever (on Node 24 as on
        // Node 20: without this, the over-limit upload test hangs). With an error it fails. A source storage has
        // read to its end is left to close as usual.
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
