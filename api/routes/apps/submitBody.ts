import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import { errors, type ValidationIssue } from '../../../domain/errors';
import type { PublicApp, Submission, SubmittedUpload } from '../../../domain/apps/public';
import { MAX_FILES_PER_SUBMISSION } from '../../../domain/apps/submission';
import type { Config } from '../../../platform/config';
import type { Storage } from '../../../platform/storage/storage';
import { dropProtoKeys, readText } from '../../middleware/jsonBody';
import { checkPart, discardParts, receiveParts } from '../../multipart';
import { uploadKind } from '../../uploads';

/** A submission as read, and whether its answer is for a browser (303 / an HTML form) or JSON. */
export interface ReadSubmission {
  form: boolean;
  submission: Submission;
}

function urlencoded(text: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    if (key === '__proto__') continue;
    if (Object.prototype.hasOwnProperty.call(values, key)) {
      throw errors.validation([{ path: key.slice(0, 100), message: 'Sent more than once' }]);
    }
    values[key] = value;
  }
  return values;
}

/**
 * A multipart submission: text fields plus one part per picked file, named after its file field (a
 * `multiple` field: a part per file). Every file is streamed into storage under a new file id, held to
 * `SVC_MAX_UPLOAD_BYTES` each and `SVC_APP_UPLOAD_TOTAL_BYTES` together. A part of no file field of the form
 * is not stored and becomes an issue at its name; so does a part with a bad name or media type (its bytes
 * deleted at once). Browsers send an unpicked file input as an empty part: empty files count as not sent.
 */
async function readMultipart(
  ctx: AppContext,
  deps: { config: Config; storage: Storage },
  app: PublicApp,
): Promise<Submission> {
  const fileFields = new Set(app.form.fields.filter((f) => f.type === 'file').map((f) => f.name));
  const maxTotal = deps.config.appUploadTotalBytes;
  uploadKind(ctx, maxTotal);
  const { files, fields, skipped } = await receiveParts(ctx, deps.storage, {
    maxBytes: deps.config.maxUploadBytes,
    maxTotalBytes: maxTotal,
    maxFiles: MAX_FILES_PER_SUBMISSION,
    accept: (name) => fileFields.has(name),
    keyFor: () => randomUUID(),
    emptyFiles: 'drop',
    tooMany: () => errors.validation([{ path: 'body', message: `At most ${MAX_FILES_PER_SUBMISSION} files` }]),
  });
  const issues: ValidationIssue[] = [...new Set(skipped)].map((name) => ({
    path: name.slice(0, 100),
    message: 'Not a file field of this form',
  }));
  const uploads: SubmittedUpload[] = [];
  const bad: typeof files = [];
  for (const part of files) {
    const checked = checkPart(part);
    if ('problem' in checked) {
      issues.push({ path: part.field, message: checked.problem });
      bad.push(part);
    } else {
      uploads.push({ field: part.field, id: part.key, size: part.size, sha256: part.sha256, ...checked });
    }
  }
  await discardParts(deps.storage, bad);
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (key !== '__proto__') values[key] = value;
  return { values, files: uploads, issues };
}

/**
 * The submission of `POST /apps/<slug>/runs` (docs/api/apps.md#public-pages): a JSON object, a browser's
 * urlencoded form (each field once), or multipart/form-data with files. JSON and urlencoded bodies are held
 * to `SVC_MAX_JSON_BYTES`; any other media type is 415. A multipart body answers as a browser form unless
 * the client prefers JSON (`Accept`).
 */
export async function readSubmission(
  ctx: AppContext,
  deps: { config: Config; storage: Storage },
  app: PublicApp,
): Promise<ReadSubmission> {
  if (ctx.is('multipart/form-data')) {
    const form = ctx.accepts('json', 'html') === 'html';
    return { form, submission: await readMultipart(ctx, deps, app) };
  }
  const form = Boolean(ctx.is('application/x-www-form-urlencoded'));
  if (!form && !ctx.is('application/json', '+json')) {
    throw errors.unsupportedMediaType('application/json, a form or multipart/form-data');
  }
  const maxBytes = deps.config.maxJsonBytes;
  if (Number(ctx.get('Content-Length') || 0) > maxBytes) throw errors.payloadTooLarge(maxBytes);
  const text = await readText(ctx.req, maxBytes);
  if (form) return { form, submission: { values: urlencoded(text) } };
  let body: unknown;
  try {
    body = JSON.parse(text, dropProtoKeys);
  } catch {
    throw errors.invalidJson();
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw errors.validation([{ path: '', message: 'Expected an object of field values' }]);
  }
  return { form, submission: { values: body as Record<string, unknown> } };
}
