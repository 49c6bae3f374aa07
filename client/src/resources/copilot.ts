/** `client.copilot`: the agent copilot (`agents:write`) and the data-source copilot (`data_sources:read`). */
import type { CallOptions, HttpClient } from '../http.js';
import type { AgentCopilotReply, CopilotSession, DataSourceCopilotReply } from '../conversation-types.js';
import { CursorList } from '../pagination.js';

type Subject = 'agents' | 'data-sources';
const sessionsPath = (subject: Subject, id: string) => `/v1/${subject}/${encodeURIComponent(id)}/copilot/sessions`;

/** The copilots: each call is a turn (a charged run of the workspace's copilot agent) of a conversation. */
export class Copilot {
  constructor(private readonly http: HttpClient) {}

  /**
   * Asks the agent copilot about an agent; a change it suggests comes back as an improvement proposal.
   * Without `conversationId`, the turn goes to your latest active copilot conversation about the agent.
   * @throws {NotFoundError} for an unknown agent or conversation; {@link ConflictError} for an ended conversation
   */
  agent(
    agentId: string,
    params: { message: string; conversationId?: string },
    options?: CallOptions,
  ): Promise<AgentCopilotReply> {
    return this.http.request({
      ...options,
      method: 'POST',
      path: `/v1/agents/${encodeURIComponent(agentId)}/copilot`,
      json: params,
    });
  }

  /**
   * Asks the data-source copilot a question; it answers with a structured read and the read's result.
   * @throws {NotFoundError} for an unknown data source or conversation; {@link ConflictError} when the source fails
   */
  dataSource(
    dataSourceId: string,
    params: { question: string; conversationId?: string },
    options?: CallOptions,
  ): Promise<DataSourceCopilotReply> {
    return this.http.request({
      ...options,
      method: 'POST',
      path: `/v1/data-sources/${encodeURIComponent(dataSourceId)}/copilot`,
      json: params,
    });
  }

  /** The agent copilot's sessions about an agent, newest first, without their messages (`agents:read`). */
  agentSessions(agentId: string, params: { limit?: number } = {}, options?: CallOptions) {
    return sessions(this.http, 'agents', agentId, params, options);
  }

  /** One agent-copilot session with its messages. @throws {NotFoundError} for an unknown agent or session */
  agentSession(agentId: string, sessionId: string, options?: CallOptions): Promise<CopilotSession> {
    return session(this.http, 'agents', agentId, sessionId, options);
  }

  /** The data-source copilot's sessions about a source, newest first (`data_sources:read`). */
  dataSourceSessions(dataSourceId: string, params: { limit?: number } = {}, options?: CallOptions) {
    return sessions(this.http, 'data-sources', dataSourceId, params, options);
  }

  /** One data-source-copilot session with its messages. @throws {NotFoundError} for an unknown source or session */
  dataSourceSession(dataSourceId: string, sessionId: string, options?: CallOptions): Promise<CopilotSession> {
    return session(this.http, 'data-sources', dataSourceId, sessionId, options);
  }
}

function sessions(
  http: HttpClient,
  subject: Subject,
  id: string,
  params: { limit?: number },
  options?: CallOptions,
): CursorList<'sessions', CopilotSession> {
  return new CursorList('sessions', (cursor) =>
    http.request({ ...options, method: 'GET', path: sessionsPath(subject, id), query: { ...params, cursor } }),
  );
}

function session(
  http: HttpClient,
  subject: Subject,
  id: string,
  sessionId: string,
  options?: CallOptions,
): Promise<CopilotSession> {
  return http.request({
    ...options,
    method: 'GET',
    path: `${sessionsPath(subject, id)}/${encodeURIComponent(sessionId)}`,
  });
}
