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
      // Public pages take no uploads yet: an optional file field is left out, a required one cannot be met.
      return { issue: 'File uploads are not accepted on public pages' };
  }
}

/**
 * The run input a submission makes: each field's value under its name, numbers as numbers, optional empty
 * fields left out. Keys that are not fields of the form are refused. Throws `validation_error` with one
 * issue per failing field (path = the field's name).
 */
export function parseSubmission(form: AppForm, values: Record<string, Raw>): Record<string, unknown> {
  const issues: ValidationIssue[] = [];
  const input: Record<string, unknown> = {};
  const names = new Set(form.fields.map((f) => f.name));
  for (const key of Object.keys(values)) {
    if (!names.has(key)) issues.push({ path: key.slice(0, 100), message: 'Not a field of this form' });
  }
  for (const f of form.fields) {
    const raw = Object.prototype.hasOwnProperty.call(values, f.name) ? values[f.name] : undefined;
    const { value, issue } = parseField(f, raw);
    if (issue) issues.push({ path: f.name, message: issue });
    else if (value !== undefined) input[f.name] = value;
  }
  if (issues.length) throw errors.validation(issues);
  return input;
}
