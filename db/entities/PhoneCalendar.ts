import { EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { Workspace } from './Workspace';

export const WEEK_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

/** Opening hours of one day, `HH:MM` wall-clock times in the calendar's timezone. */
export interface WeeklyHours {
  day: WeekDay;
  start: string;
  end: string;
}

/** The workspace's booking calendar (docs/api/phone.md#booking-calendar): one per workspace. */
export class PhoneCalendar extends BaseEntity {
  constructor(
    public workspace: Workspace,
    public timezone: string,
    public weeklyHours: WeeklyHours[],
    public slotMinutes: number,
  ) {
    super();
  }
}

/**
 * One booked slot. (workspace, start) is unique, so a slot is booked at most once under any concurrency;
 * deleting a booking frees its slot.
 */
export class PhoneBooking extends BaseEntity {
  name: string | null = null;
  phone: string | null = null;
  /** The call it was booked on, when a phone agent booked it during one. */
  callId: string | null = null;
  /** The run whose `calendar_book` made it: a retried tool call finds its own booking. */
  runId: string | null = null;

  constructor(
    public workspace: Workspace,
    public startAt: Date,
    public endAt: Date,
  ) {
    super();
  }
}

export const PhoneCalendarSchema = new EntitySchema<PhoneCalendar, BaseEntity>({
  class: PhoneCalendar,
  extends: 'BaseEntity',
  tableName: 'phone_calendars',
  uniques: [{ properties: ['workspace'] }],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'phone_calendars_workspace_id_fkey',
    },
    timezone: { type: 'string', length: 64 },
    weeklyHours: { type: 'json' },
    slotMinutes: { type: 'integer' },
  },
});

export const PhoneBookingSchema = new EntitySchema<PhoneBooking, BaseEntity>({
  class: PhoneBooking,
  extends: 'BaseEntity',
  tableName: 'phone_bookings',
  uniques: [{ properties: ['workspace', 'startAt'] }],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'phone_bookings_workspace_id_fkey',
    },
    startAt: { type: 'Date', columnType: 'timestamptz' },
    endAt: { type: 'Date', columnType: 'timestamptz' },
    name: { type: 'text', nullable: true },
    phone: { type: 'string', length: 64, nullable: true },
    callId: { type: 'uuid', nullable: true },
    runId: { type: 'uuid', nullable: true },
  },
});
