/** `client.tutor`: tutor sessions with an agent (`runs:write` to start, talk and end; `agents:read` to read). */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type { TutorReply, TutorSession } from '../conversation-types.js';

const path = (id: string) => `/v1/tutor/sessions/${encodeURIComponent(id)}`;

/** Tutor sessions: each message is a charged run of the agent, the reply in the response. */
export class Tutor {
  constructor(private readonly http: HttpClient) {}

  /**
   * Starts a session with an agent on a topic.
   * @throws {NotFoundError} for an unknown agent; {@link ValidationError} for an empty topic
   */
  start(params: { agentId: string; topic: string }, options?: CallOptions): Promise<TutorSession> {
    return this.http.request({ ...options, method: 'POST', path: '/v1/tutor/sessions', json: params });
  }

  /**
   * Sends a message and waits for the reply. The call's Idempotency-Key is the message's id: a retry
   * (the client retries with the same key) gets the first reply without a second run.
   * @throws {NotFoundError} for an unknown session; {@link ConflictError} when it has ended
   */
  send(sessionId: string, text: string, options?: CallOptions): Promise<TutorReply> {
    return this.http.request({ ...options, method: 'POST', path: `${path(sessionId)}/messages`, json: { text } });
  }

  /**
   * Ends a session (ending an ended one changes nothing).
   * @throws {NotFoundError} for an unknown session
   */
  end(sessionId: string, options?: CallOptions): Promise<TutorSession> {
    return this.http.request({ ...options, method: 'POST', path: `${path(sessionId)}/end` });
  }

  /**
   * Reads a session with its messages.
   * @throws {NotFoundError} for an unknown id
   */
  get(sessionId: string, options?: CallOptions): Promise<TutorSession> {
    return this.http.request({ ...options, method: 'GET', path: path(sessionId) });
  }

  /** Lists sessions, newest first (without messages), as a lazily fetched {@link CursorList}. */
  list(params: { limit?: number } = {}, options?: CallOptions): CursorList<'sessions', TutorSession> {
    return new CursorList('sessions', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: '/v1/tutor/sessions',
        query: { limit: params.limit, cursor },
      }),
    );
  }
}
