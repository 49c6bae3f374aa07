import type { ToolSpec } from '../../workflows/agentTurn';
import type { ToolDeps, ToolRegistry } from '../tools/registry';
import type { Orm } from '../../db/orm';
import { Run } from '../../db/entities/Run';
import { bookSlot, freeSlots } from './calendar';
import { callOfRun } from './calls';
import { ApiError } from '../errors';

export const CALENDAR_FREE_SLOTS = 'calendar_free_slots';
export const CALENDAR_BOOK = 'calendar_book';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const CALENDAR_FREE_SLOTS_SPEC: ToolSpec = {
  name: CALENDAR_FREE_SLOTS,
  description:
    "List the free slots of the workspace's booking calendar on the days from through to (YYYY-MM-DD, in the calendar's timezone).",
  parameters: {
    type: 'object',
    properties: { from: { type: 'string', format: 'date' }, to: { type: 'string', format: 'date' } },
    required: ['from', 'to'],
  },
};

export const CALENDAR_BOOK_SPEC: ToolSpec = {
  name: CALENDAR_BOOK,
  description:
    'Book the free slot starting at `start` (an ISO timestamp from calendar_free_slots). Answers { bookingId }, or the error calendar.slot_taken when someone else has booked it.',
  parameters: {
    type: 'object',
    properties: { start: { type: 'string' }, name: { type: 'string' }, phone: { type: 'string' } },
    required: ['start'],
  },
};

async function workspaceOf(orm: Orm, runId: string): Promise<string> {
  const run = await orm.em.fork().findOne(Run, runId, { fields: ['workspaceId'] });
  if (!run) throw new Error('run not found');
  return run.workspaceId;
}

const optionalText = (v: unknown, max: number) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : null);

/**
 * `calendar_free_slots` for a run: `{ slots: [{ start, end }] }` as JSON text (docs/api/phone.md).
 * @throws Error for missing or malformed days (given back to the model as the tool's error)
 */
export async function runCalendarFreeSlots(orm: Orm, runId: string, args: Record<string, unknown>): Promise<string> {
  const { from, to } = args;
  if (typeof from !== 'string' || !DAY.test(from) || typeof to !== 'string' || !DAY.test(to)) {
    throw new Error('calendar_free_slots needs from and to as YYYY-MM-DD');
  }
  try {
    return JSON.stringify({ slots: await freeSlots(orm.em.fork(), await workspaceOf(orm, runId), from, to) });
  } catch (err) {
    if (err instanceof ApiError) throw new Error(`calendar_free_slots: ${err.message}`);
    throw err;
  }
}

/**
 * `calendar_book` for a run: `{ bookingId, start, end }`, or `{ error: { code: "calendar.slot_taken" } }`
 * for a slot booked already: one booking per slot whatever the concurrency (docs/api/phone.md).
 * @throws Error for a missing or malformed start
 */
export async function runCalendarBook(orm: Orm, runId: string, args: Record<string, unknown>): Promise<string> {
  const start = typeof args.start === 'string' ? new Date(args.start) : null;
  if (!start || Number.isNaN(start.getTime())) throw new Error('calendar_book needs start as an ISO timestamp');
  const em = orm.em.fork();
  const outcome = await bookSlot(em, await workspaceOf(orm, runId), {
    start,
    name: optionalText(args.name, 200),
    phone: optionalText(args.phone, 64),
    runId,
    callId: await callOfRun(em, runId),
  });
  if ('error' in outcome) return JSON.stringify({ error: { code: outcome.error, message: outcome.message } });
  return JSON.stringify({ bookingId: outcome.booking.id, start: outcome.booking.start, end: outcome.booking.end });
}

/** Adds the booking calendar's tools to a tool registry (they run only where `orm` is given: the worker). */
export function registerCalendarTools(tools: ToolRegistry, deps: ToolDeps): void {
  for (const [spec, run] of [
    [CALENDAR_FREE_SLOTS_SPEC, runCalendarFreeSlots],
    [CALENDAR_BOOK_SPEC, runCalendarBook],
  ] as const) {
    tools.register(spec, (args, context) => {
      if (!deps.orm || !context) throw new Error(`${spec.name} is not available here`);
      return run(deps.orm, context.runId, args);
    });
  }
}
