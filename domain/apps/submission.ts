import type { AppForm, FormField } from '../../db/entities/App';
import { errors, type ValidationIssue } from '../errors';

/** Longest value a text field takes; a textarea takes more. */
const MAX_TEXT = 2000;
const MAX_TEXTAREA = 50_000;

/** A value as submitted: JSON gives any value, a browser form gives strings (`undefined`: not sent). */
type Raw = unknown;

function parseField(f: FormField, raw: Raw): { value?: unknown; issue?: string } {
  const empty = raw === undefined || raw === null || raw === '';
  if (empty) return f.required ? { issue: 'Required' } : {};
  switch (f.type) {
    case 'text':
    case 'textarea': {
      if (typeof raw !== 'string') return { issue: 'Expected text' };
      const max = f.type === 'text' ? MAX_TEXT : MAX_TEXTAREA;
      if (raw.length > max) return { issue: `At most ${max} characters` };
      if (raw.includes('\u0000')) return { issue: 'Must not contain U+0000 (NUL)' };
      if (f.type === 'text' && /[\r\n]/.test(raw)) return { issue: 'A single line of text' };
      if (f.required && raw.trim() === '') return { issue: 'Required' };
      return { value: raw };
    }
    case 'number': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      if (!Number.isFinite(n)) return { issue: 'Expected a number' };
      return { value: n };
    }
    case 'select':
      if (typeof raw !== 'string' || !(f.options ?? []).includes(raw)) {
        return { issue: `One of: ${(f.options ?? []).join(', ')}` };
      }
      return { value: raw };
    case 'file':
      // Files arrive as parts of a multipart body (parseFiles), never as a value.
      return { issue: 'Send the file itself, as a part of a multipart/form-data body' };
  }
}

/** The most files one `multiple` field takes, and one submission in all (docs/api/apps.md#public-pages). */
export const MAX_FILES_PER_SUBMISSION = 10;

/** A file part of a submission, its bytes already in storage under `id`. */
export interface SubmittedFile {
  /** The form field (the part's name). */
  field: string;
  id: string;
}

/** Each file field's ids (one id, or a list for a `multiple` field), or its issue. */
function parseFiles(
  form: AppForm,
  values: Record<string, Raw>,
  files: SubmittedFile[],
  issues: ValidationIssue[],
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const f of form.fields) {
    if (f.type !== 'file') continue;
    const ids = files.filter((file) => file.field === f.name).map((file) => file.id);
    // A value sent for a file field gets its own issue below, not a second one here.
    const valued = Object.prototype.hasOwnProperty.call(values, f.name) && values[f.name] !== '';
    if (ids.length === 0) {
      if (f.required && !valued) issues.push({ path: f.name, message: 'Required: pick a file' });
    } else if (!f.multiple && ids.length > 1) {
      issues.push({ path: f.name, message: 'One file only' });
    } else {
      input[f.name] = f.multiple ? ids : ids[0];
    }
  }
  return input;
}

/**
 * The run input a submission makes: each field's value under its name, numbers as numbers, optional empty
 * fields left out; a file field's uploaded file id (a list for a `multiple` field), and every uploaded id in
 * `fileIds`, in form order. Keys that are not fields of the form are refused, as are `issues` the transport
 * found (a file part of no file field, a bad filename). Throws `validation_error` with one issue per failing
 * field (path = the field's name).
 */
export function parseSubmission(
  form: AppForm,
  values: Record<string, Raw>,
  files: SubmittedFile[] = [],
  transportIssues: ValidationIssue[] = [],
): Record<string, unknown> {
  const issues: ValidationIssue[] = [...transportIssues];
  const input: Record<string, unknown> = parseFiles(form, values, files, issues);
  const fileIds = form.fields.flatMap((f) => (f.name in input ? [input[f.name]].flat() : [])) as string[];
  const names = new Set(form.fields.map((f) => f.name));
  for (const key of Object.keys(values)) {
    if (!names.has(key)) issues.push({ path: key.slice(0, 100), message: 'Not a field of this form' });
  }
  for (const f of form.fields) {
    const raw = Object.prototype.hasOwnProperty.call(values, f.name) ? values[f.name] : undefined;
    // A file field as a value: an empty one is a browser's unpicked input sent urlencoded, so not sent.
    if (f.type === 'file' && (raw === undefined || raw === '')) continue;
    const { value, issue } = parseField(f, raw);
    if (issue) issues.push({ path: f.name, message: issue });
    else if (value !== undefined) input[f.name] = value;
  }
  if (issues.length) throw errors.validation(issues);
  if (fileIds.length) input.fileIds = fileIds;
  return input;
}
