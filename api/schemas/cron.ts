import { z } from 'zod';

// minute, hour, day of month, month, day of week (0 and 7 are Sunday)
const RANGES: Array<[number, number]> = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];
const PART = /^(\*|(\d{1,2})(?:-(\d{1,2}))?)(?:\/(\d{1,2}))?$/;

/** Whether `expr` is a five-field cron expression whose every number is in its field's range. */
export function cronProblem(expr: string): string | null {
  const fields = expr.split(' ');
  if (fields.length !== 5) return 'Expected five fields: minute hour day-of-month month day-of-week';
  for (const [i, field] of fields.entries()) {
    const [min, max] = RANGES[i]!;
    for (const part of field.split(',')) {
      const m = PART.exec(part);
      if (!m) return `Field ${i + 1} ("${field}") is not *, n, a-b, a-b/n or a list of them`;
      const [from, to, step] = [m[2], m[3], m[4]].map((v) => (v === undefined ? undefined : Number(v)));
      if (from !== undefined && (from < min || from > max)) return `Field ${i + 1}: ${from} is not in ${min}..${max}`;
      if (to !== undefined && (to < min || to > max || to < from!))
        return `Field ${i + 1}: ${from}-${to} is not a range in ${min}..${max}`;
      if (step !== undefined && step < 1) return `Field ${i + 1}: a step must be at least 1`;
    }
  }
  return null;
}

/** A five-field cron expression (UTC), as a saved table's refresh schedule takes it. */
export const cron = z
  .string()
  .check(z.refine((v) => cronProblem(v) === null, { error: (iss) => cronProblem(String(iss.input)) ?? '' }))
  .meta({ maxLength: 100, pattern: '^[0-9*/,-]+( [0-9*/,-]+){4}$' })
  .describe('Five fields, minute hour day-of-month month day-of-week (UTC), such as "0 * * * *"');
