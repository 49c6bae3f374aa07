import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { LedgerEntry } from '../../db/entities/LedgerEntry';
import { Membership } from '../../db/entities/Membership';
import { Session } from '../../db/entities/Session';
import { User } from '../../db/entities/User';
import { Workspace } from '../../db/entities/Workspace';
import { hashPassword, newOpaqueToken, sha256Hex, verifyPassword } from '../../domain/identity/secrets';
import type { Config } from '../../platform/config';
import type { AppContext } from '../context';
import { errors } from '../../domain/errors';
import type { Mailer } from '../../platform/mailer';
import { SESSION_COOKIE } from '../middleware/auth';
import { usdToMicros } from '../../domain/billing/money';
import { authOut, meOut, signInBody, signUpBody, userOut, verifyEmailBody } from '../schemas/console';
import { defineRoute, type RouteDef } from './route';

interface Deps {
  config: Config;
  mailer: Mailer;
}

export function serializeUser(user: User): z.infer<typeof userOut> {
  return { id: user.id, email: user.email, name: user.name, emailVerified: user.emailVerifiedAt !== null };
}

function serializeMembership(m: Membership) {
  return { id: m.workspace.id, name: m.workspace.name, plan: m.workspace.plan, role: m.role };
}

/** CONTRACT §2 console routes: sign-up, sign-in, sign-out, me, verify-email. */
export function consoleAuthRoutes({ config, mailer }: Deps): RouteDef[] {
  const setSessionCookie = async (ctx: AppContext, em: EntityManager, user: User) => {
    const token = newOpaqueToken();
    em.persist(new Session(user, sha256Hex(token), new Date(Date.now() + config.sessionTtlMs)));
    await em.flush();
    // Written by hand so the attributes are exactly CONTRACT §2's, whatever the transport.
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
      responses: { 201: { description: 'Signed up', schema: authOut } },
      async handler(ctx, { body }) {
        const em = ctx.state.em;
        const user = new User(body.email, await hashPassword(body.password), body.name);
        const verifyToken = newOpaqueToken();
        user.emailVerifyTokenHash = sha256Hex(verifyToken);
        const label = body.name ?? body.email.split('@')[0];
        const workspace = new Workspace(`${label}'s workspace`, 'free_trial', usdToMicros(config.trialCreditsUsd));
        const membership = new Membership(user, workspace, 'owner');
        em.persist([
          user,
          workspace,
          membership,
          new LedgerEntry(workspace, 'grant', workspace.creditBalanceMicros, 'Trial credits'),
        ]);
        try {
          await em.flush();
        } catch (err) {
          if (err instanceof UniqueConstraintViolationException) throw errors.emailTaken();
          throw err;
        }
        await mailer.send({
          to: user.email,
          subject: 'Verify your e-mail address',
          text: `Verify your address: ${config.publicUrl}/verify-email?token=${verifyToken}\nor POST /v1/console/auth/verify-email {"token":"${verifyToken}"}`,
        });
        await setSessionCookie(ctx, em, user);
        ctx.status = 201;
        ctx.body = { user: serializeUser(user), workspace: serializeMembership(membership) };
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
      responses: { 200: { description: 'Signed in', schema: authOut } },
      async handler(ctx, { body }) {
        const em = ctx.state.em;
        const user = await em.findOne(User, { email: body.email });
        // Same error, and the same argon2 cost, whether the e-mail or the password was wrong.
        if (!(await verifyPassword(user?.passwordHash, body.password)) || !user) throw errors.invalidCredentials();
        const membership = await em.findOne(
          Membership,
          { user },
          { populate: ['workspace'], orderBy: { createdAt: 'asc', id: 'asc' } },
        );
        if (!membership) throw errors.forbidden('You are not a member of any workspace');
        await setSessionCookie(ctx, em, user);
        ctx.body = { user: serializeUser(user), workspace: serializeMembership(membership) };
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
        const identity = ctx.state.identity;
        if (identity?.actor === 'session') await ctx.state.em.nativeDelete(Session, { id: identity.sessionId });
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
        const identity = ctx.state.identity!;
        if (identity.actor !== 'session') throw errors.forbidden();
        const em = ctx.state.em;
        const user = await em.findOneOrFail(User, identity.userId);
        const memberships = await em.find(
          Membership,
          { user },
          { populate: ['workspace'], orderBy: { createdAt: 'asc', id: 'asc' } },
        );
        ctx.body = { user: serializeUser(user), workspaces: memberships.map(serializeMembership) };
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
        const em = ctx.state.em;
        const user = await em.findOne(User, { emailVerifyTokenHash: sha256Hex(body.token) });
        if (!user) throw errors.validation([{ path: 'token', message: 'Invalid or already used verification token' }]);
        user.emailVerifiedAt = new Date();
        user.emailVerifyTokenHash = null;
        await em.flush();
        ctx.body = { user: serializeUser(user) };
      },
    }),
  ];
}
