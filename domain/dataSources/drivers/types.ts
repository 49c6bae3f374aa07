/** What every data-source driver offers (docs/api/data-sources.md); SQL never comes from a caller. */

export type ObjectKind = 'table' | 'view' | 'sheet';

export interface SourceObject {
  name: string;
  kind: ObjectKind;
}

export interface SourceColumn {
  name: string;
  type: string;
  nullable: boolean;
}

export const OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'in', 'is_null'] as const;
export type Operator = (typeof OPERATORS)[number];

export type Scalar = string | number | boolean;

/** A read whose every identifier was checked against the object's live schema (readPlan.ts). */
export interface ReadPlan {
  object: string;
  columns: string[];
  where: Array<{ column: string; op: Operator; value?: Scalar | Scalar[] | boolean }>;
  orderBy: Array<{ column: string; desc: boolean }>;
  limit: number;
}

export interface ReadResult {
  columns: string[];
  rows: Array<Record<string, unknown>>;
  truncated: boolean;
}

/** An open connection to one source, closed by whoever opened it. */
export interface Driver {
  ping(): Promise<void>;
  listObjects(): Promise<SourceObject[]>;
  /** The object's columns; null when it does not exist. */
  describe(name: string): Promise<SourceColumn[] | null>;
  read(plan: ReadPlan): Promise<ReadResult>;
  close(): Promise<void>;
}

/** The row cap of every read (and of a saved table's refresh). */
export const MAX_READ_ROWS = 1000;
/** Statement and connect timeout of database sources. */
export const STATEMENT_TIMEOUT_MS = 10_000;

/** A value a driver returned, made JSON-safe: dates as ISO strings, bytes as hex, big integers as strings. */
export function jsonValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return value;
}
