import type { z } from 'zod';
import { errors } from '../../../domain/errors';
import { handleCallback, type HookDeps } from '../../../domain/phone/hook';
import { readText } from '../../middleware/jsonBody';
import { hookParams, hookQuery } from '../../schemas/phone';
import { defineRoute, type RouteDef } from '../route';
import type { Config } from '../../../platform/config';
import { enforceHookRateLimit } from '../../hookRateLimit';
import type { RateLimitStore } from '../../rateLimitStore';

/** The form fields of a callback, each once (the first of a repeated name). */
function formFields(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(text)) if (!(key in out)) out[key] = value.replace(/\u0000/g, '');
  return out;
}

/**
 * The provider's callbacks for a number (docs/api/phone.md#callbacks): no credential, a signature
 * (`X-Twilio-Signature`, keyed with the number's webhook secret) instead; form-encoded in, XML out.
 */
export function phoneHookRoutes(
  deps: HookDeps & { config: Pick<Config, 'maxJsonBytes'>; rateLimits: RateLimitStore },
): RouteDef[] {
  return [
    defineRoute<undefined, z.infer<typeof hookQuery>, z.infer<typeof hookParams>>({
      method: 'POST',
      path: '/hooks/phone/:numberId',
      summary: "A provider callback for a number's call: transcribed speech in, the agent's reply as XML out",
      tag: 'phone',
      access: { auth: 'public' },
      params: hookParams,
      query: hookQuery,
      rawBody: {
        contentTypes: ['application/x-www-form-urlencoded'],
        description: "Twilio's callback parameters (CallSid, From, To, CallStatus, SpeechResult, …)",
      },
      responses: {
        200: { description: 'The provider XML to play', contentType: 'application/xml' },
        403: { description: '`forbidden`: a missing or bad `X-Twilio-Signature`; nothing is recorded' },
        404: { description: '`not_found`: no such number (or it was removed), or no such call of it' },
        429: { description: '`rate_limited`: too many callbacks for this number; see `Retry-After`' },
      },
      async handler(ctx, { params, query }) {
        await enforceHookRateLimit(ctx, deps.rateLimits, `phone:${params.numberId}`);
        if (!ctx.is('application/x-www-form-urlencoded')) {
          throw errors.unsupportedMediaType('application/x-www-form-urlencoded');
        }
        const params2 = formFields(await readText(ctx.req, deps.config.maxJsonBytes));
        // the URL as the provider called it (ctx.origin is the Origin header in Koa 3, not this)
        const reached = `${ctx.protocol}://${ctx.host}${ctx.originalUrl}`;
        const suffix = query.callId ? `?callId=${query.callId}` : '';
        const published = `${deps.config.publicUrl.replace(/(?<!\/)\/+$/, '')}/hooks/phone/${params.numberId}${suffix}`;
        const xml = await handleCallback(ctx.state.em, deps, {
          numberId: params.numberId,
          callId: query.callId,
          urls: [...new Set([published, reached])],
          actionUrl: reached,
          signature: ctx.get('X-Twilio-Signature') || undefined,
          params: params2,
        });
        ctx.type = 'application/xml';
        ctx.body = xml;
      },
    }),
  ];
}
