/** `client.copilot`: the agent copilot (`agents:write`) and the data-source copilot (`data_sources:read`). */
import type { CallOptions, HttpClient } from '../http.js';
import type { AgentCopilotReply, DataSourceCopilotReply } from '../conversation-types.js';

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
}
