/** Phone types (docs/api/phone.md). */
import type { Agent, AgentCreateParams } from './types.js';

/** A voice a phone agent may speak with (`settings.voice`). */
export interface PhoneVoice {
  id: string;
  name: string;
  language: string;
  gender: 'female' | 'male';
}

/** A model a phone agent may use, with its prices. */
export interface PhoneModel {
  id: string;
  provider: string;
  pricing: { inputPerMTokUsd: number; outputPerMTokUsd: number; perRunUsd: number };
}

/** The provider account a number places calls with; write-only. */
export interface PhoneCredentials {
  accountSid: string;
  authToken: string;
}

/** A number answered by a phone agent; its credentials and webhook secret are never shown. */
export interface PhoneNumber {
  id: string;
  e164: string;
  provider: 'twilio';
  agentId: string;
  createdAt: string;
  updatedAt: string;
}

/** A new number, with its callback URL (Twilio's voice webhook, POST) shown this once. */
export interface CreatedPhoneNumber extends PhoneNumber {
  callbackUrl: string;
}

export interface PhoneNumberCreateParams {
  e164: string;
  provider: 'twilio';
  agentId: string;
  credentials: PhoneCredentials;
}

export interface PhoneNumberUpdateParams {
  agentId?: string;
  credentials?: PhoneCredentials;
}

export interface PhoneTranscriptEntry {
  role: 'user' | 'assistant';
  text: string;
  at: string;
}

/** One call of a number, with its transcript, duration and cost. */
export interface PhoneCall {
  id: string;
  numberId: string;
  direction: 'inbound' | 'outbound';
  from: string;
  to: string;
  status: 'ringing' | 'in_progress' | 'completed' | 'failed';
  purpose: string | null;
  transcript: PhoneTranscriptEntry[];
  durationSec: number | null;
  costUsd: number;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
}

export interface PhoneCallParams {
  numberId: string;
  to: string;
  purpose?: string;
}

export type WeekDay = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

export interface WeeklyHours {
  day: WeekDay;
  /** `HH:MM` in the calendar's timezone. */
  start: string;
  end: string;
}

export interface PhoneBooking {
  id: string;
  start: string;
  end: string;
  name: string | null;
  phone: string | null;
  callId: string | null;
}

/** The booking calendar with its free slots and bookings on the days asked. */
export interface PhoneCalendar {
  timezone: string;
  weeklyHours: WeeklyHours[];
  slotMinutes: number;
  slots: Array<{ start: string; end: string }>;
  bookings: PhoneBooking[];
}

export interface PhoneCalendarParams {
  timezone: string;
  weeklyHours: WeeklyHours[];
  slotMinutes: number;
}

/** A number a phone agent answers, as the agent lists it. */
export interface PhoneAgentNumber {
  id: string;
  e164: string;
  provider: string;
}

/** A phone agent: an {@link Agent} on a phone preset, with the numbers it answers. */
export interface PhoneAgent extends Agent {
  numbers: PhoneAgentNumber[];
}

/** Body of `phone.createAgent`: as `agents.create`, with `presetId` one of the phone presets. */
export interface PhoneAgentCreateParams extends AgentCreateParams {
  presetId: 'phone-receptionist' | 'phone-booking';
}
