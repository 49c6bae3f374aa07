import { z } from 'zod';
import { flowLinkAnswers } from '../../domain/flows/linkAnswers';
import { runLinkAnswers } from '../../domain/runs/linkAnswers';
import { checkLink, type LinkKind, type LinkPage } from '../../domain/shared/approvalLinks';
import type { LinkAnswers } from '../../domain/shared/linkAnswers';
import type { RelayDeps } from '../../domain/shared/outbox/relay';
import type { Config } from '../../platform/config';
import type { RequestMeta } from '../../domain/audit/context';
import { requestMeta } from '../auditContext';
import type { AppContext } from '../context';
import { escapeHtml } from './apps/html';
import { defineRoute, type RouteDef } from './route';

/**
 * The one-click links of approval e-mails (docs/api/runs.md#one-click-links), outside `/v1` and without a
 * credential: the token in the path is one. GET shows a confirm form and answers nothing (mail scanners
 * follow links); its POST gives the answer. Every outcome is a page with status 200, saying what happened.
 * A token names what it answers, a run's gate or a flow run's approval step; the area of that kind checks
 * and answers it.
 */
const params = z.object({ token: z.string().min(1).max(1000) });
type Params = z.infer<typeof params>;

const TITLES: Record<LinkPage['kind'], string> = {
  confirm: 'Confirm your answer',
  answered: 'Thank you',
  invalid: 'This link is not valid',
  expired: 'This link has expired',
  used: 'This link was already used',
  closed: 'This approval is no longer open',
  refused: 'You may not answer this approval',
};

function page(ctx: AppContext, shown: LinkPage, action: string): void {
  ctx.set(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  );
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.status = 200;
  ctx.body = `<!doctype html><html><head><meta charset="utf-8"><meta name="robots" content="noindex">
<title>${escapeHtml(TITLES[shown.kind])}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto">
<h1>${escapeHtml(TITLES[shown.kind])}</h1>${body(shown, action)}</body></html>`;
}

function body(shown: LinkPage, action: string): string {
  switch (shown.kind) {
    case 'confirm': {
      const verb = shown.decision === 'approve' ? 'Approve' : 'Reject';
      return `<p>${escapeHtml(shown.asks)}</p>
<p>${escapeHtml(shown.shows.caption)}</p><pre>${escapeHtml(shown.shows.text)}</pre>
<form method="post" action="${escapeHtml(action)}"><button type="submit">${verb}</button></form>`;
    }
    case 'answered':
      return shown.decision === 'approve'
        ? `<p>Your approval is recorded.${shown.remaining > 0 ? ` ${shown.remaining} more needed.` : ''}</p>`
        : `<p>Your rejection is recorded; the ${escapeHtml(shown.subject)} is rejected.</p>`;
    case 'refused':
      return `<p>${escapeHtml(shown.message)}.</p>`;
    case 'expired':
      return '<p>The approval it was for expired. Nothing was answered.</p>';
    case 'used':
      return '<p>You have already answered this approval. Nothing changed.</p>';
    case 'closed':
      return '<p>The approval has moved on (decided, expired or cancelled). Nothing was answered.</p>';
    case 'invalid':
      return '<p>Nothing was answered. Use the link from the latest e-mail.</p>';
  }
}

/** Each kind of link, answered by its area. */
const ANSWERERS: Record<LinkKind, LinkAnswers<RequestMeta>> = { run: runLinkAnswers, flow_run: flowLinkAnswers };

/** The routes of the links; `config.secretKeys` verifies their tokens. */
export function approvalLinkRoutes(deps: RelayDeps & { config: Pick<Config, 'temporal' | 'secretKeys'> }): RouteDef[] {
  const base = {
    tag: 'runs',
    access: { auth: 'public' } as const,
    params,
    responses: { 200: { description: 'An HTML page saying what the link did', contentType: 'text/html' } },
  };
  return [
    defineRoute<undefined, undefined, Params>({
      ...base,
      method: 'GET',
      path: '/approvals/:token',
      summary: "The confirm page of a one-click approval link, to a run's gate or a flow run's step (answers nothing)",
      async handler(ctx, { params: p }) {
        const checked = checkLink(deps.config.secretKeys, p.token);
        const shown =
          'page' in checked ? checked.page : await ANSWERERS[checked.claim.kind].open(ctx.state.em, checked.claim);
        page(ctx, shown, ctx.path);
      },
    }),
    defineRoute<undefined, undefined, Params>({
      ...base,
      method: 'POST',
      path: '/approvals/:token',
      summary: "Give the answer of a one-click approval link, to a run's gate or a flow run's step",
      rawBody: {
        contentTypes: ['application/x-www-form-urlencoded'],
        description: 'Empty: the token carries the answer',
      },
      async handler(ctx, { params: p }) {
        const checked = checkLink(deps.config.secretKeys, p.token);
        const shown =
          'page' in checked
            ? checked.page
            : await ANSWERERS[checked.claim.kind].confirm(deps, ctx.state.em, checked.claim, requestMeta(ctx));
        page(ctx, shown, ctx.path);
      },
    }),
  ];
}
