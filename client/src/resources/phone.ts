/** `client.phone`: phone numbers, calls, voices and models, the booking calendar (scopes `phone:read` / `phone:manage`). */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type {
  CreatedPhoneNumber,
  PhoneCalendar,
  PhoneCalendarParams,
  PhoneCall,
  PhoneCallParams,
  PhoneModel,
  PhoneNumber,
  PhoneNumberCreateParams,
  PhoneNumberUpdateParams,
  PhoneVoice,
  PhoneAgent,
  PhoneAgentCreateParams,
} from '../phone-types.js';
import type { AgentCreateParams } from '../types.js';

const numberPath = (id: string) => `/v1/phone/numbers/${encodeURIComponent(id)}`;
const agentPath = (id: string) => `/v1/phone/agents/${encodeURIComponent(id)}`;

/** Phone agents' numbers, calls and calendar. */
export class Phone {
  constructor(private readonly http: HttpClient) {}

  /** The voices a phone agent may speak with. */
  async voices(options?: CallOptions): Promise<PhoneVoice[]> {
    const body = await this.http.request<{ voices: PhoneVoice[] }>({
      ...options,
      method: 'GET',
      path: '/v1/phone/voices',
    });
    return body.voices;
  }

  /** The models a phone agent may use. */
  async models(options?: CallOptions): Promise<PhoneModel[]> {
    const body = await this.http.request<{ models: PhoneModel[] }>({
      ...options,
      method: 'GET',
      path: '/v1/phone/models',
    });
    return body.models;
  }

  /**
   * Connects a number to a phone agent; the answer carries the webhook secret this once.
   * @throws {ValidationError} for an agent that is not a phone agent of the workspace
   * @throws {ConflictError} for a number connected already
   */
  createNumber(params: PhoneNumberCreateParams, options?: CallOptions): Promise<CreatedPhoneNumber> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/phone/numbers', json: params });
  }

  /** Lists numbers, newest first, as a lazily fetched {@link CursorList}. */
  listNumbers(params: { limit?: number } = {}, options?: CallOptions): CursorList<'numbers', PhoneNumber> {
    return new CursorList('numbers', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: '/v1/phone/numbers',
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /** @throws {NotFoundError} for an unknown id */
  getNumber(id: string, options?: CallOptions): Promise<PhoneNumber> {
    return this.http.request({ ...options, method: 'GET', path: numberPath(id) });
  }

  /** Moves a number to another phone agent or replaces its credentials. @throws {NotFoundError} */
  updateNumber(id: string, params: PhoneNumberUpdateParams, options?: CallOptions): Promise<PhoneNumber> {
    return this.http.request({ ...options, method: 'PATCH', path: numberPath(id), json: params });
  }

  /** Removes a number; its calls stay readable. @throws {NotFoundError} */
  async deleteNumber(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: numberPath(id) });
  }

  /** Replaces the callback URL's token; the old URL answers 404 at once. @throws {NotFoundError} */
  rotateSecret(id: string, options?: CallOptions): Promise<{ callbackUrl: string }> {
    return this.http.request({ ...options, method: 'POST', path: `${numberPath(id)}/rotate-secret` });
  }

  /** Lists calls, newest first, optionally one number's, as a lazily fetched {@link CursorList}. */
  listCalls(params: { numberId?: string; limit?: number } = {}, options?: CallOptions): CursorList<'calls', PhoneCall> {
    return new CursorList('calls', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: '/v1/phone/calls',
        query: { numberId: params.numberId, limit: params.limit, cursor },
      }),
    );
  }

  /** A call with its transcript, duration and cost. @throws {NotFoundError} */
  getCall(id: string, options?: CallOptions): Promise<PhoneCall> {
    return this.http.request({ ...options, method: 'GET', path: `/v1/phone/calls/${encodeURIComponent(id)}` });
  }

  /** Places an outbound call from a number; its agent talks. @throws {NotFoundError} for an unknown number */
  placeCall(params: PhoneCallParams, options?: CallOptions): Promise<PhoneCall> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/phone/calls', json: params });
  }

  /** The calendar with its free slots and bookings on the days `from` through `to` (the coming week by default). */
  getCalendar(params: { from?: string; to?: string } = {}, options?: CallOptions): Promise<PhoneCalendar> {
    return this.http.request({ ...options, method: 'GET', path: '/v1/phone/calendar', query: params });
  }

  /** Sets the timezone, weekly hours and slot length. @throws {ValidationError} */
  setCalendar(params: PhoneCalendarParams, options?: CallOptions): Promise<PhoneCalendar> {
    return this.http.request({ ...options, method: 'PUT', path: '/v1/phone/calendar', json: params });
  }

  /** Cancels a booking, freeing its slot. @throws {NotFoundError} */
  async cancelBooking(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({
      ...options,
      method: 'DELETE',
      path: `/v1/phone/calendar/bookings/${encodeURIComponent(id)}`,
    });
  }

  /**
   * Creates a phone agent (needs `phone:manage` and `agents:write`); the same agent `agents.get` reads.
   * @throws {ValidationError} for a preset that is not a phone preset, an unknown model, tool or voice
   */
  createAgent(params: PhoneAgentCreateParams, options?: CallOptions): Promise<PhoneAgent> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/phone/agents', json: params });
  }

  /** Lists phone agents with their numbers, newest first, as a lazily fetched {@link CursorList}. */
  listAgents(params: { limit?: number } = {}, options?: CallOptions): CursorList<'agents', PhoneAgent> {
    return new CursorList('agents', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: '/v1/phone/agents',
        query: { limit: params.limit, cursor },
      }),
    );
  }

  /** A phone agent with its numbers. @throws {NotFoundError} for an unknown agent or one not on a phone preset */
  getAgent(id: string, options?: CallOptions): Promise<PhoneAgent> {
    return this.http.request({ ...options, method: 'GET', path: agentPath(id) });
  }

  /** Changes a phone agent (a definition change makes a new version). @throws {NotFoundError} */
  updateAgent(
    id: string,
    params: Partial<Omit<AgentCreateParams, 'presetId'>>,
    options?: CallOptions,
  ): Promise<PhoneAgent> {
    return this.http.request({ ...options, method: 'PATCH', path: agentPath(id), json: params });
  }

  /** Deletes a phone agent; its runs and calls stay readable. @throws {NotFoundError} */
  async deleteAgent(id: string, options?: CallOptions): Promise<void> {
    await this.http.request({ ...options, method: 'DELETE', path: agentPath(id) });
  }
}
