import { z } from 'zod';
import { WEEK_DAYS } from '../../db/entities/PhoneCalendar';
import { pageQuery } from '../../domain/shared/pagination';
import { TIMEZONES } from '../../domain/phone/slots';
import { day, uuid } from './common';
import { text, urlOut } from './text';

/** An E.164 phone number: `+`, a country code and up to 15 digits in all. */
const e164 = z.string().regex(/^\+[1-9][0-9]{1,14}$/, 'Expected an E.164 number such as +14155550100');

/** The provider account; stored sealed and never returned (docs/api/phone.md). */
const credentials = z.strictObject({
  accountSid: z.string().regex(/^[A-Za-z0-9]{2,64}$/, 'Expected the account sid (letters and digits)'),
  authToken: text(1, 256),
});

export const createNumberBody = z.strictObject({ e164, provider: z.literal('twilio'), agentId: uuid, credentials });

export const updateNumberBody = z
  .strictObject({ agentId: uuid.optional(), credentials: credentials.optional() })
  .refine((b) => Object.keys(b).length > 0, 'Nothing to update')
  .meta({ minProperties: 1 });

export const numberOut = z.object({
  id: z.uuid(),
  e164: z.string(),
  provider: z.literal('twilio'),
  agentId: z.uuid(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

/** The callback URL holds the number's token: shown on create and on rotation only. */
const callbackUrlField = z.string().describe("Paste into Twilio as the number's voice webhook (POST); shown once");
export const numberCreatedOut = numberOut.extend({ callbackUrl: callbackUrlField });
export const numberListOut = z.object({ numbers: z.array(numberOut), nextCursor: z.string().nullable() });
export const secretOut = z.object({ callbackUrl: callbackUrlField });

export const callListQuery = pageQuery.extend({ numberId: uuid.optional() });

export const createCallBody = z.strictObject({ numberId: uuid, to: e164, purpose: text(1, 2000).optional() });

export const callOut = z.object({
  id: z.uuid(),
  numberId: z.uuid(),
  direction: z.enum(['inbound', 'outbound']),
  from: z.string(),
  to: z.string(),
  status: z.enum(['ringing', 'in_progress', 'completed', 'failed']),
  purpose: z.string().nullable(),
  transcript: z.array(z.object({ role: z.enum(['user', 'assistant']), text: z.string(), at: z.iso.datetime() })),
  durationSec: z.number().int().nullable(),
  costUsd: z.number(),
  createdAt: z.iso.datetime(),
  startedAt: z.iso.datetime().nullable(),
  endedAt: z.iso.datetime().nullable(),
});

export const callListOut = z.object({ calls: z.array(callOut), nextCursor: z.string().nullable() });

const clock = z.string().regex(/^(?:[01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$/, 'Expected HH:MM');

export const calendarQuery = z.object({
  from: day.optional().describe('First day (in the calendar timezone); today when absent'),
  to: day.optional().describe('Last day, included; at most 62 days after `from`'),
});

export const putCalendarBody = z.strictObject({
  timezone: z.enum(TIMEZONES as [string, ...string[]]),
  weeklyHours: z
    .array(
      z
        .strictObject({ day: z.enum(WEEK_DAYS), start: clock, end: clock })
        .refine((h) => h.start < h.end, { message: '`start` must be before `end`', path: ['end'] }),
    )
    .max(50),
  slotMinutes: z.number().int().min(5).max(480),
});

const slotOut = z.object({ start: z.iso.datetime(), end: z.iso.datetime() });

export const calendarOut = z.object({
  timezone: z.string(),
  weeklyHours: z.array(z.object({ day: z.enum(WEEK_DAYS), start: z.string(), end: z.string() })),
  slotMinutes: z.number().int(),
  slots: z.array(slotOut),
  bookings: z.array(
    z.object({
      id: z.uuid(),
      start: z.iso.datetime(),
      end: z.iso.datetime(),
      name: z.string().nullable(),
      phone: z.string().nullable(),
      callId: z.uuid().nullable(),
    }),
  ),
});

export const voicesOut = z.object({
  voices: z.array(
    z.object({ id: z.string(), name: z.string(), language: z.string(), gender: z.enum(['female', 'male']) }),
  ),
});

export const phoneModelsOut = z.object({
  models: z.array(
    z.object({
      id: z.string(),
      provider: z.string(),
      pricing: z.object({ inputPerMTokUsd: z.number(), outputPerMTokUsd: z.number(), perRunUsd: z.number() }),
    }),
  ),
});

export const hookParams = z.object({ numberId: z.string(), token: z.string() });
export const hookQuery = z.object({ callId: uuid.optional() });
export const bookingParams = z.object({ id: uuid });
