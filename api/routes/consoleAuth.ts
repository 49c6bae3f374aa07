import type { z } from 'zod';
import { currentUser, signIn, signOut, signUp, verifyEmail } from '../../domain/identity/accounts';
import type { Config } from '../../platform/config';
import type { AppContext } from '../context';
import type { Mailer } from '../../platform/mailer';
import { SESSION_COOKIE } from '../middleware/auth';
import { authOut, meOut, signInBody, signUpBody, verifyEmailBody } from '../schemas/console';
import { defineRoute, type RouteDef } from './route';

interface Deps {
  config: Config;
  mailer: Mailer;
}

/** The console's account routes: sign-up, sign-in, sign-out, me, verify-email (docs/api/identity.md). */
export function consoleAuthRoutes({ config, mailer }: Deps): RouteDef[] {
  // Written by hand so the attributes are exactly these, whatever the transport: HttpOnly, SameSite=Lax,
  // Path=/, Max-Age of the session lifetime, and Secure when configured.
  const setSessionCookie = (ctx: AppContext, token: string) => {
    const attrs = ['HttpOnly', 'SameSite=Lax', 'Path=/', `Max-Age=${Math.floor(config.sessionTtlMs / 1000)}`];
    if (config.cookieSecure) attrs.push('Secure');
    ctx.append('Set-Cookie', `${SESSION_COOKIE}=${token}; ${attrs.join('; ')}`);
  };

  return [
    defineRoute<z.infer<typeof signUpBody>>({
      method: 'POST',
      path: '/v1/console/auth/sign-up',
      summary: 'Create an account, its workspace and a session',
      tag: 'console',
      access: { auth: 'public' },
      ipRateLimit: 'signup',
      body: signUpBody,
      responses: {
        201: { description: 'Signed up', schema: authOut },
        409: { description: '`auth.email_taken`: an account with this e-mail exists' },
      },
      async handler(ctx, { body }) {
        const { sessionToken, ...account } = await signUp(ctx.state.em, { config, mailer }, body);
        setSessionCookie(ctx, sessionToken);
        ctx.status = 201;
        ctx.body = account;
      },
    }),
    defineRoute<z.infer<typeof signInBody>>({
      method: 'POST',
      path: '/v1/console/auth/sign-in',
      summary: 'Sign in with e-mail and password',
      tag: 'console',
      access: { auth: 'public' },
      ipRateLimit: 'signin',
      body: signInBody,
      responses: {
        200: { description: 'Signed in', schema: authOut },
        401: { description: '`auth.invalid_credentials`: wrong e-mail or password' },
      },
      async handler(ctx, { body }) {
        const { sessionToken, ...account } = await signIn(ctx.state.em, config, body);
        setSessionCookie(ctx, sessionToken);
        ctx.body = account;
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/console/auth/sign-out',
      summary: 'End the current session',
      tag: 'console',
      access: { auth: 'session' },
      responses: { 204: { description: 'Signed out; the session is deleted server-side' } },
      async handler(ctx) {
        await signOut(ctx.state.em, ctx.state.identity!);
        ctx.append('Set-Cookie', `${SESSION_COOKIE}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0`);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/console/me',
      summary: 'The signed-in user and their workspaces',
      tag: 'console',
      access: { auth: 'session' },
      responses: { 200: { description: 'The current user', schema: meOut } },
      async handler(ctx) {
        ctx.body = await currentUser(ctx.state.em, ctx.state.identity!);
      },
    }),
    defineRoute<z.infer<typeof verifyEmailBody>>({
      method: 'POST',
      path: '/v1/console/auth/verify-email',
      summary: 'Confirm an e-mail address with the token the mailer sent',
      tag: 'console',
      access: { auth: 'public' },
      ipRateLimit: 'signin',
      body: verifyEmailBody,
      responses: { 200: { description: 'Verified', schema: meOut.pick({ user: true }) } },
      async handler(ctx, { body }) {
        ctx.body = await verifyEmail(ctx.state.em, body.token);
      },
    }),
  ];
}
