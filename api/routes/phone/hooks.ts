import type { z } from 'zod';
import type { Context } from 'koa';
import { errors } from '../../../domain/errors';
import { handleStatus } from '../../../domain/phone/callStatus';
import { handleCallback, type HookDeps } from '../../../domain/phone/hook';
import type { Callback } from '../../../domain/phone/hookAuth';
import type { FormParams } from '../../../domain/phone/signature';
import { readText } from '../../middleware/jsonBody';
import { hookParams, hookQuery } from '../../schemas/phone';
import { defineRoute, type RouteDef } from '../route';
import type { Config } from '../../../platform/config';
import { enforceHookRateLimit } from '../../hookRateLimit';
import type { RateLimitStore } from '../../rateLimitStore';

/** The form fields of a callback, each name with all its values (Twilio signs every one). */
function formFields(text: string): FormParams {
  const out: FormParams = {};
  for (const [key, value] of new URLSearchParams(text)) (out[key] ??= []).push(value.replace(/\u0000/g, ''));
  return out;
}

type HookRouteDeps = HookDeps & { config: Pick<Config, 'maxJsonBytes' | 'publicUrl'>; rateLimits: RateLimitStore };
type Params = z.infer<typeof hookParams>;
type Query = z.infer<typeof hookQuery>;

/**
 * Reads a callback: form-encoded only, and the URL Twilio signed rebuilt on `SVC_PUBLIC_URL` with the path
 * and query string it called (the request's `Host` is whatever a proxy in front made of it).
 */
async function readCallback(
  ctx: Context,
  deps: HookRouteDeps,
  params: Params,
  query: Query,
  suffix: string,
): Promise<Callback> {
  await enforceHookRateLimit(ctx, deps.rateLimits, `phone:${params.numberId}`);
  if (!ctx.is('application/x-www-form-urlencoded'))
    throw errors.unsupportedMediaType('application/x-www-form-urlencoded');
  const form = formFields(await readText(ctx.req, deps.config.maxJsonBytes));
  const base = deps.config.publicUrl.replace(/(?<!\/)\/+$/, '');
  const search = ctx.querystring ? `?${ctx.querystring}` : '';
  return {
    numberId: params.numberId,
    token: params.token,
    callId: query.callId,
    url: `${base}/hooks/phone/${params.numberId}/${params.token}${suffix}${search}`,
    signature: ctx.get('X-Twilio-Signature') || undefined,
    form,
  };
}

const hookResponses = {
  403: { description: '`forbidden`: a missing or bad `X-Twilio-Signature`; nothing is recorded' },
  404: {
    description: '`not_found`: no such number (or removed), a token that is not its current one, or no such call',
  },
  415: { description: '`unsupported_media_type`: not a form' },
  429: { description: '`rate_limited`: too many callbacks for this number; see `Retry-After`' },
} as const;

/**
 * Twilio's callbacks for a number (docs/api/phone.md#callbacks): no credential; the token in the path and
 * `X-Twilio-Signature` under the account's Auth Token instead; form-encoded in, TwiML out.
 */
export function phoneHookRoutes(deps: HookRouteDeps): RouteDef[] {
  return [
    defineRoute<undefined, Query, Params>({
      method: 'POST',
      path: '/hooks/phone/:numberId/:token',
      summary: "Twilio's voice callback for a number's call: transcribed speech in, the agent's reply as TwiML out",
      tag: 'phone',
      access: { auth: 'public' },
      params: hookParams,
      query: hookQuery,
      rawBody: {
        contentTypes: ['application/x-www-form-urlencoded'],
        description: "Twilio's callback parameters (CallSid, From, To, CallStatus, SpeechResult, …)",
      },
      responses: { 200: { description: 'The TwiML to play', contentType: 'application/xml' }, ...hookResponses },
      async handler(ctx, { params, query }) {
        const cb = await readCallback(ctx, deps, params, query, '');
        const xml = await handleCallback(ctx.state.em, deps, cb);
        ctx.type = 'application/xml';
        ctx.body = xml;
      },
    }),
    defineRoute<undefined, Query, Params>({
      method: 'POST',
      path: '/hooks/phone/:numberId/:token/status',
      summary: "Twilio's status callback for a number's call: answered, then its end with the duration",
      tag: 'phone',
      access: { auth: 'public' },
      params: hookParams,
      query: hookQuery,
      rawBody: {
        contentTypes: ['application/x-www-form-urlencoded'],
        description: "Twilio's status callback parameters (CallSid, CallStatus, CallDuration, …)",
      },
      responses: { 200: { description: 'An empty TwiML document', contentType: 'application/xml' }, ...hookResponses },
      async handler(ctx, { params, query }) {
        const cb = await readCallback(ctx, deps, params, query, '/status');
        const xml = await handleStatus(ctx.state.em, deps, cb);
        ctx.type = 'application/xml';
        ctx.body = xml;
      },
    }),
  ];
}
