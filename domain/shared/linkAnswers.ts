import type { EntityManager } from '@mikro-orm/postgresql';
import { answerThroughLink, type LinkAnswerer, type LinkClaim, type LinkPage } from './approvalLinks';
import type { RelayDeps } from './outbox/relay';

/**
 * What a one-click link comes to once its token is checked (genuine, not expired: `checkLink`): the confirm page
 * it opens (GET) and the answer its confirmation gives (POST). The same for every kind of gate; each area says
 * how to find its gate, what the page shows and which answer function answers (docs/api/runs.md#one-click-links).
 */

/** What an area tells the links about its approval gates. `M` is what its answer function takes of the request. */
export interface LinkArea<G extends { id: string; remaining: number }, M> {
  /** What the "answered" page calls the subject ("run", "flow run"). */
  subject: string;
  /**
   * The person's answer at the claim's gate (its row, or null while they have not answered), and the gate while
   * the subject waits at it (null once decided, expired or cancelled).
   */
  lookup(em: EntityManager, claim: LinkClaim): Promise<{ answered: unknown; openGate: G | null }>;
  /** The confirm page's sentence and what it shows. */
  confirmPage(claim: LinkClaim, gate: G): { asks: string; shows: { caption: string; text: string } };
  /** The area's own answer function, so the gate's policy judges, audits and counts it like any answer. */
  answer(
    deps: RelayDeps,
    em: EntityManager,
    who: LinkAnswerer,
    claim: LinkClaim,
    approved: boolean,
    meta: M,
  ): Promise<unknown>;
}

export interface LinkAnswers<M> {
  open(em: EntityManager, claim: LinkClaim): Promise<LinkPage>;
  confirm(deps: RelayDeps, em: EntityManager, claim: LinkClaim, meta: M): Promise<LinkPage>;
}

export function linkAnswers<G extends { id: string; remaining: number }, M>(area: LinkArea<G, M>): LinkAnswers<M> {
  /** The open gate the claim answers, or the page saying why there is none (answered already, moved on). */
  async function gateOf(em: EntityManager, claim: LinkClaim): Promise<{ gate: G } | { page: LinkPage }> {
    const { answered, openGate } = await area.lookup(em, claim);
    if (answered) return { page: { kind: 'used' } };
    if (!openGate || openGate.id !== claim.actionId) return { page: { kind: 'closed' } };
    return { gate: openGate };
  }
  return {
    async open(em, claim) {
      const checked = await gateOf(em, claim);
      if ('page' in checked) return checked.page;
      return { kind: 'confirm', decision: claim.decision, ...area.confirmPage(claim, checked.gate) };
    },
    async confirm(deps, em, claim, meta) {
      const checked = await gateOf(em, claim);
      if ('page' in checked) return checked.page;
      return answerThroughLink(claim, checked.gate.remaining, area.subject, (who, approved) =>
        area.answer(deps, em, who, claim, approved, meta),
      );
    },
  };
}
