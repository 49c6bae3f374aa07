/** `client.proposals`: improvement proposals for agents (`agents:read` reads, `agents:write` changes). */
import type { CallOptions, HttpClient } from '../http.js';
import { CursorList } from '../pagination.js';
import type { Agent } from '../types.js';
import type { Proposal, ProposalCreateParams, ProposalStatus } from '../eval-types.js';

const path = (id: string) => `/v1/proposals/${encodeURIComponent(id)}`;

/** Suggested changes to agents, each accepted as the agent's next version or rejected. */
export class Proposals {
  constructor(private readonly http: HttpClient) {}

  /**
   * Proposes a change to an agent against its current version, or drafts one from its corrected feedback.
   * @throws {NotFoundError} for an unknown agent; {@link ConflictError} for `fromFeedback` without such
   * feedback; {@link ValidationError} for an invalid change
   */
  create(agentId: string, params: ProposalCreateParams, options?: CallOptions): Promise<Proposal> {
    return this.http.request({
      ...options,
      method: 'POST',
      path: `/v1/agents/${encodeURIComponent(agentId)}/proposals`,
      json: params,
    });
  }

  /**
   * Lists an agent's proposals, newest first, optionally of one status, as a lazily fetched {@link CursorList}.
   * @throws {NotFoundError} on iteration, for an unknown agent
   */
  list(
    agentId: string,
    params: { status?: ProposalStatus; limit?: number } = {},
    options?: CallOptions,
  ): CursorList<'proposals', Proposal> {
    return new CursorList('proposals', (cursor) =>
      this.http.request({
        ...options,
        method: 'GET',
        path: `/v1/agents/${encodeURIComponent(agentId)}/proposals`,
        query: { status: params.status, limit: params.limit, cursor },
      }),
    );
  }

  /**
   * Reads one proposal.
   * @throws {NotFoundError} for an unknown id
   */
  get(id: string, options?: CallOptions): Promise<Proposal> {
    return this.http.request({ ...options, method: 'GET', path: path(id) });
  }

  /**
   * Accepts a proposal: answers the agent at the new version its changes make.
   * @throws {ConflictError} when the agent moved past the proposal's base version, or it was decided already
   */
  accept(id: string, options?: CallOptions): Promise<Agent> {
    return this.http.request({ ...options, method: 'POST', path: `${path(id)}/accept` });
  }

  /**
   * Rejects a proposal.
   * @throws {ConflictError} when it was decided already
   */
  reject(id: string, options?: CallOptions): Promise<Proposal> {
    return this.http.request({ ...options, method: 'POST', path: `${path(id)}/reject` });
  }
}
