import { errors, type ValidationIssue } from '../errors';
import { MAX_READ_ROWS, type Operator, type ReadPlan, type Scalar, type SourceColumn } from './drivers/types';

/** A structured read as callers send it (`POST /v1/data-sources/{id}/read`, a saved table's `read`). */
export interface ReadRequest {
  object: string;
  columns?: string[];
  where?: Array<{ column: string; op: Operator; value?: unknown }>;
  orderBy?: Array<{ column: string; desc?: boolean }>;
  limit?: number;
}

export const DEFAULT_READ_LIMIT = 100;
/** Values one `in` filter may list. */
export const MAX_IN_VALUES = 100;

// Numeric column types of PostgreSQL, MySQL/MariaDB and parsed sheets
const NUMERIC_TYPE = /^(small|big|tiny|medium)?int|^integer|^numeric|^decimal|^real|^double|^float|^number$|^dec\b/i;
const NUMBER_TEXT = /^\s*-?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?\s*$/i;

/**
 * Whether `value` can be compared with a column of `type`: a number column takes numbers (or their
 * text), so that no source converts a string such as `1 OR 1=1` into a number of its own accord.
 */
function fitsType(type: string, value: Scalar): boolean {
  if (!NUMERIC_TYPE.test(type)) return true;
  return typeof value === 'number' || (typeof value === 'string' && NUMBER_TEXT.test(value));
}

const isScalar = (v: unknown): v is Scalar =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';

/**
 * Checks every identifier of `req` against the object's live columns and every value against its
 * operator: callers never send SQL (docs/api/data-sources.md).
 * @throws {ApiError} 400 `validation_error` naming each unknown column and misfit value
 */
export function planRead(req: ReadRequest, columns: SourceColumn[]): ReadPlan {
  const known = new Set(columns.map((c) => c.name));
  const types = new Map(columns.map((c) => [c.name, c.type]));
  const issues: ValidationIssue[] = [];
  const check = (name: string, path: string) => {
    if (!known.has(name)) issues.push({ path, message: `Unknown column "${name}" of ${req.object}` });
  };
  (req.columns ?? []).forEach((c, i) => check(c, `columns.${i}`));
  (req.orderBy ?? []).forEach((o, i) => check(o.column, `orderBy.${i}.column`));
  const where = (req.where ?? []).map((w, i) => {
    check(w.column, `where.${i}.column`);
    const path = `where.${i}.value`;
    const value = w.value;
    if (w.op === 'is_null') {
      if (value !== undefined && typeof value !== 'boolean')
        issues.push({ path, message: 'is_null takes true, false or nothing' });
    } else if (w.op === 'in') {
      if (!Array.isArray(value) || value.length === 0 || value.length > MAX_IN_VALUES || !value.every(isScalar)) {
        issues.push({ path, message: `in takes a list of 1 to ${MAX_IN_VALUES} strings, numbers or booleans` });
      }
    } else if (!isScalar(value)) {
      issues.push({ path, message: `${w.op} takes one string, number or boolean` });
    } else if (w.op === 'like' && typeof value !== 'string') {
      issues.push({ path, message: 'like takes a string pattern' });
    }
    const type = types.get(w.column);
    const values = Array.isArray(value) ? value : [value];
    if (
      type &&
      w.op !== 'like' &&
      w.op !== 'is_null' &&
      values.every(isScalar) &&
      !values.every((v) => fitsType(type, v))
    ) {
      issues.push({ path, message: `Column "${w.column}" is a ${type}: compare it with numbers` });
    }
    return { column: w.column, op: w.op, value: value as Scalar | Scalar[] | boolean | undefined };
  });
  if (issues.length > 0) throw errors.validation(issues);
  return {
    object: req.object,
    columns: req.columns && req.columns.length > 0 ? [...new Set(req.columns)] : columns.map((c) => c.name),
    where,
    orderBy: (req.orderBy ?? []).map((o) => ({ column: o.column, desc: o.desc === true })),
    limit: Math.min(req.limit ?? DEFAULT_READ_LIMIT, MAX_READ_ROWS),
  };
}
