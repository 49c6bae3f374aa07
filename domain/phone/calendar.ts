import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PhoneBooking, PhoneCalendar, type WeeklyHours } from '../../db/entities/PhoneCalendar';
import { Workspace } from '../../db/entities/Workspace';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { presentBooking, type BookingView, type CalendarView } from './presenters';
import { dayBounds, dayCount, defaultRange, MAX_RANGE_DAYS, slotAt, slotsBetween, type CalendarRules } from './slots';

/** The calendar a workspace has before it sets one: UTC, no opening hours, 30-minute slots. */
const DEFAULT_RULES: CalendarRules = { timezone: 'UTC', weeklyHours: [], slotMinutes: 30 };

/** Tool error of `calendar_book` when another booking holds the slot (docs/api/phone.md#booking-calendar). */
export const SLOT_TAKEN = 'calendar.slot_taken';

async function rulesOf(em: EntityManager, workspaceId: string): Promise<CalendarRules> {
  const cal = await em.findOne(PhoneCalendar, { workspace: workspaceId });
  return cal ? { timezone: cal.timezone, weeklyHours: cal.weeklyHours, slotMinutes: cal.slotMinutes } : DEFAULT_RULES;
}

/**
 * The range a read covers: the days given, else the coming week. Throws `validation_error` when `from` is
 * after `to` or the range is longer than MAX_RANGE_DAYS.
 */
function range(rules: CalendarRules, from?: string, to?: string): { from: string; to: string } {
  const fallback = defaultRange(rules.timezone);
  const r = { from: from ?? (to && to < fallback.from ? to : fallback.from), to: to ?? fallback.to };
  if (from && !to && from > r.to) r.to = from;
  const days = dayCount(r.from, r.to);
  if (days < 1) throw errors.validation([{ path: 'from', message: '`from` is after `to`' }]);
  if (days > MAX_RANGE_DAYS) {
    throw errors.validation([{ path: 'to', message: `The range is longer than ${MAX_RANGE_DAYS} days` }]);
  }
  return r;
}

async function bookingsBetween(em: EntityManager, workspaceId: string, start: Date, end: Date) {
  return em.find(
    PhoneBooking,
    { workspace: workspaceId, startAt: { $gte: start, $lt: end } },
    { orderBy: { startAt: 'asc' } },
  );
}

/**
 * The free slots (slots of the weekly hours without a booking) on the days `from` through `to` of the
 * calendar's timezone. Throws `validation_error` for a bad range.
 */
export async function freeSlots(
  em: EntityManager,
  workspaceId: string,
  from?: string,
  to?: string,
): Promise<Array<{ start: string; end: string }>> {
  const rules = await rulesOf(em, workspaceId);
  const r = range(rules, from, to);
  const slots = slotsBetween(rules, r.from, r.to);
  if (slots.length === 0) return [];
  const booked = await bookingsBetween(em, workspaceId, slots[0].start, slots[slots.length - 1].end);
  const taken = new Set(booked.map((b) => b.startAt.getTime()));
  return slots
    .filter((s) => !taken.has(s.start.getTime()))
    .map((s) => ({ start: s.start.toISOString(), end: s.end.toISOString() }));
}

/** The calendar with its free slots and its bookings in the range (the coming week by default). */
export async function getCalendar(
  em: EntityManager,
  identity: Identity,
  query: { from?: string; to?: string },
): Promise<CalendarView> {
  const rules = await rulesOf(em, identity.workspaceId);
  const r = range(rules, query.from, query.to);
  const slots = await freeSlots(em, identity.workspaceId, r.from, r.to);
  const days = dayBounds(rules.timezone, r.from, r.to);
  const bookings = await bookingsBetween(em, identity.workspaceId, days.start, days.end);
  return { ...rules, slots, bookings: bookings.map(presentBooking) };
}

/** Sets the workspace's timezone, weekly hours and slot length; bookings stay as they are. */
export async function putCalendar(
  em: EntityManager,
  identity: Identity,
  input: { timezone: string; weeklyHours: WeeklyHours[]; slotMinutes: number },
): Promise<CalendarView> {
  await em.upsert(
    PhoneCalendar,
    new PhoneCalendar(
      em.getReference(Workspace, identity.workspaceId),
      input.timezone,
      input.weeklyHours,
      input.slotMinutes,
    ),
    { onConflictFields: ['workspace'], onConflictExcludeFields: ['id', 'createdAt'] },
  );
  return getCalendar(em.fork(), identity, {});
}

/** Cancels a booking, freeing its slot. Throws `not_found`. */
export async function deleteBooking(em: EntityManager, identity: Identity, id: string): Promise<void> {
  const removed = await em.nativeDelete(PhoneBooking, { id, workspace: identity.workspaceId });
  if (removed === 0) throw errors.notFound('Booking');
}

export type BookOutcome =
  { booking: BookingView } | { error: typeof SLOT_TAKEN | 'calendar.invalid_slot'; message: string };

/**
 * Books the slot starting at `start`, at most once whatever the concurrency: the unique (workspace, start)
 * lets one insert win and the others find the slot taken. A repeat by the same run (a retried tool call)
 * finds its own booking.
 */
export async function bookSlot(
  em: EntityManager,
  workspaceId: string,
  req: { start: Date; name?: string | null; phone?: string | null; runId?: string | null; callId?: string | null },
): Promise<BookOutcome> {
  const rules = await rulesOf(em, workspaceId);
  const slot = slotAt(rules, req.start);
  if (!slot) return { error: 'calendar.invalid_slot', message: 'No slot of the calendar starts at that time' };
  const booking = new PhoneBooking(em.getReference(Workspace, workspaceId), slot.start, slot.end);
  booking.name = req.name ?? null;
  booking.phone = req.phone ?? null;
  booking.runId = req.runId ?? null;
  booking.callId = req.callId ?? null;
  try {
    await em.persist(booking).flush();
    return { booking: presentBooking(booking) };
  } catch (err) {
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
    const holder = await em.fork().findOne(PhoneBooking, { workspace: workspaceId, startAt: slot.start });
    if (holder && req.runId && holder.runId === req.runId) return { booking: presentBooking(holder) };
    return { error: SLOT_TAKEN, message: 'That slot is already booked' };
  }
}
