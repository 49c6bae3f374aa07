import type { PhoneCall, CallDirection, CallStatus } from '../../db/entities/PhoneCall';
import type { PhoneBooking, WeeklyHours } from '../../db/entities/PhoneCalendar';
import type { PhoneNumber } from '../../db/entities/PhoneNumber';
import { microsToUsd } from '../shared/money';

export interface NumberView {
  id: string;
  e164: string;
  provider: 'twilio';
  agentId: string;
  createdAt: string;
  updatedAt: string;
}

export interface TranscriptEntry {
  role: 'user' | 'assistant';
  text: string;
  at: string;
}

export interface CallView {
  id: string;
  numberId: string;
  direction: CallDirection;
  from: string;
  to: string;
  status: CallStatus;
  purpose: string | null;
  transcript: TranscriptEntry[];
  durationSec: number | null;
  costUsd: number;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
}

export interface BookingView {
  id: string;
  start: string;
  end: string;
  name: string | null;
  phone: string | null;
  callId: string | null;
}

export interface CalendarView {
  timezone: string;
  weeklyHours: WeeklyHours[];
  slotMinutes: number;
  slots: Array<{ start: string; end: string }>;
  bookings: BookingView[];
}

/** A number as every read shows it: never its credentials or its callback URL (which holds its token). */
export function presentNumber(n: PhoneNumber): NumberView {
  return {
    id: n.id,
    e164: n.e164,
    provider: n.provider,
    agentId: n.agent.id,
    createdAt: n.createdAt.toISOString(),
    updatedAt: n.updatedAt.toISOString(),
  };
}

/** A call with its conversation's transcript and the summed cost of the runs that answered it. */
export function presentCall(c: PhoneCall, transcript: TranscriptEntry[], costMicros: number): CallView {
  return {
    id: c.id,
    numberId: c.number.id,
    direction: c.direction,
    from: c.fromNumber,
    to: c.toNumber,
    status: c.status,
    purpose: c.purpose,
    transcript,
    durationSec: c.durationSec,
    costUsd: microsToUsd(costMicros),
    createdAt: c.createdAt.toISOString(),
    startedAt: c.startedAt?.toISOString() ?? null,
    endedAt: c.endedAt?.toISOString() ?? null,
  };
}

export function presentBooking(b: PhoneBooking): BookingView {
  return {
    id: b.id,
    start: b.startAt.toISOString(),
    end: b.endAt.toISOString(),
    name: b.name,
    phone: b.phone,
    callId: b.callId,
  };
}
