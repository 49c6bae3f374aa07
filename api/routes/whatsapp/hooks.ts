import type { z } from 'zod';
import { errors } from '../../../domain/errors';
import type { WhatsAppAccountDeps } from '../../../domain/whatsapp/accounts';
import { authenticatePost, verifySubscription } from '../../../domain/whatsapp/hooks';
import { receiveMessages } from '../../../domain/whatsapp/inbound';
import { replyStatuses, textMessages } from '../../../domain/whatsapp/payload';
import { applyReplyStatuses } from '../../../domain/whatsapp/replyStatus';
import { SIGNATURE_HEADER } from '../../../domain/whatsapp/signature';
import type { Config } from '../../../platform/config';
import type { Temporal } from '../../../platform/temporal';
import { enforceHookRateLimit } from '../../hookRateLimit';
import { dropProtoKeys, readBytes } from '../../middleware/jsonBody';
import type { RateLimitStore } from '../../rateLimitStore';
import { hookAckOut, hookParams, hubQuery } from '../../schemas/whatsapp';
import { defineRoute, type RouteDef } from '../route';

type HookParams = z.infer<typeof hookParams>;

/**
 * The Cloud API's webhook of one account (docs/api/whatsapp.md#webhook): no credential, the verify token (GET)
 * and the app secret's signature over the raw body (POST) are the proof.
 */
export function whatsappHookRoutes(
  deps: WhatsAppAccountDeps & { config: Config; temporal: Temporal; rateLimits: RateLimitStore },
): RouteDef[] {
  return [
    defineRoute<undefined, z.infer<typeof hubQuery>, HookParams>({
      method: 'GET',
      path: '/hooks/whatsapp/:accountId',
      summary: "The Cloud API's webhook verification: echoes `hub.challenge` when the verify token matches",
      tag: 'whatsapp',
      access: { auth: 'public' },
      params: hookParams,
      query: hubQuery,
      responses: {
        200: { description: 'The challenge, as sent', contentType: 'text/plain' },
        403: { description: '`forbidden`: the mode is not `subscribe` or the verify token is wrong' },
        429: { description: '`rate_limited`: too many requests for this account; see `Retry-After`' },
      },
      async handler(ctx, { params, query }) {
        await enforceHookRateLimit(ctx, deps.rateLimits, `whatsapp:${params.accountId}`);
        const challenge = await verifySubscription(ctx.state.em, deps.box, params.accountId, {
          mode: query['hub.mode'],
          verifyToken: query['hub.verify_token'],
          challenge: query['hub.challenge'],
        });
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.type = 'text/plain; charset=utf-8';
        ctx.body = challenge;
      },
    }),
    defineRoute<undefined, undefined, HookParams>({
      method: 'POST',
      path: '/hooks/whatsapp/:accountId',
      summary: "The Cloud API's webhook: messages signed with the app secret (`X-Hub-Signature-256`)",
      tag: 'whatsapp',
      access: { auth: 'public' },
      params: hookParams,
      rawBody: {
        contentTypes: ['application/json'],
        description: 'The Cloud API notification, signed over these exact bytes',
      },
      responses: {
        200: {
          description: 'Received: `received` new text messages; replies follow through the Graph API',
          schema: hookAckOut,
        },
        403: { description: '`forbidden`: `X-Hub-Signature-256` is missing or wrong' },
        429: { description: '`rate_limited`: too many requests for this account; see `Retry-After`' },
      },
      async handler(ctx, { params }) {
        await enforceHookRateLimit(ctx, deps.rateLimits, `whatsapp:${params.accountId}`);
        const max = deps.config.maxJsonBytes;
        if (!ctx.is('application/json', '+json')) throw errors.unsupportedMediaType('application/json');
        if (Number(ctx.get('Content-Length') || 0) > max) throw errors.payloadTooLarge(max);
        const raw = await readBytes(ctx.req, max);
        const account = await authenticatePost(
          ctx.state.em,
          deps.box,
          params.accountId,
          raw,
          ctx.get(SIGNATURE_HEADER) || undefined,
        );
        let body: unknown;
        try {
          body = JSON.parse(raw.toString('utf8'), dropProtoKeys);
        } catch {
          throw errors.invalidJson();
        }
        await applyReplyStatuses(ctx.state.em, account.id, replyStatuses(body, account.phoneNumberId));
        const messages = textMessages(body, account.phoneNumberId);
        const received = await receiveMessages(
          { em: ctx.state.em, temporal: deps.temporal, config: deps.config },
          account,
          messages,
        );
        ctx.body = { received };
      },
    }),
  ];
}
