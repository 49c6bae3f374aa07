import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LedgerEntry } from '../../db/entities/LedgerEntry';
import { Membership } from '../../db/entities/Membership';
import { User } from '../../db/entities/User';
import { Workspace } from '../../db/entities/Workspace';
import type { Config } from '../../platform/config';
import type { Mailer } from '../../platform/mailer';
import { usdToMicros } from '../shared/money';
import { errors } from '../errors';
import type { Identity } from './identity';
import { presentMembership, presentUser, type MembershipView, type UserView } from './presenters';
import { hashPassword, newOpaqueToken, sha256Hex, verifyPassword } from './secrets';
import { closeSession, openSession } from './sessions';

export interface AccountDeps {
  config: Pick<Config, 'trialCreditsUsd' | 'publicUrl' | 'sessionTtlMs'>;
  mailer: Mailer;
}

/** A signed-in user: what the console shows, and the session token for its cookie. */
export interface SignedIn {
  user: UserView;
  workspace: MembershipView;
  sessionToken: string;
}

const firstMembership = (em: EntityManager, user: User) =>
  em.findOne(Membership, { user }, { populate: ['workspace'], orderBy: { createdAt: 'asc', id: 'asc' } });

/**
 * Creates a user, their own workspace on the free trial (with its trial credits as a ledger grant) and
 * a session, then mails the e-mail verification link. Throws `email_taken` when the address is in use.
 */
export async function signUp(
  em: EntityManager,
  deps: AccountDeps,
  input: { email: string; password: string; name?: string },
): Promise<SignedIn> {
  const { config, mailer } = deps;
  const user = new User(input.email, await hashPassword(input.password), input.name);
  const verifyToken = newOpaqueToken();
  user.emailVerifyTokenHash = sha256Hex(verifyToken);
  const label = input.name ?? input.email.split('@')[0];
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
  const sessionToken = await openSession(em, user, config.sessionTtlMs);
  return { user: presentUser(user), workspace: presentMembership(membership), sessionToken };
}

/**
 * Checks e-mail and password and opens a session in the user's first workspace. Throws
 * `invalid_credentials` whichever of the two was wrong, and `forbidden` for a user without a workspace.
 */
export async function signIn(
  em: EntityManager,
  config: Pick<Config, 'sessionTtlMs'>,
  input: { email: string; password: string },
): Promise<SignedIn> {
  const user = await em.findOne(User, { email: input.email });
  // Same error, and the same argon2 cost, whether the e-mail or the password was wrong.
  if (!(await verifyPassword(user?.passwordHash, input.password)) || !user) throw errors.invalidCredentials();
  const membership = await firstMembership(em, user);
  if (!membership) throw errors.forbidden('You are not a member of any workspace');
  const sessionToken = await openSession(em, user, config.sessionTtlMs);
  return { user: presentUser(user), workspace: presentMembership(membership), sessionToken };
}

/** Ends the caller's session, if the caller is one (a key has nothing to end). */
export async function signOut(em: EntityManager, identity: Identity): Promise<void> {
  if (identity.actor === 'session') await closeSession(em, identity.sessionId);
}

/** The signed-in user and every workspace they belong to, oldest membership first. */
export async function currentUser(
  em: EntityManager,
  identity: Identity,
): Promise<{ user: UserView; workspaces: MembershipView[] }> {
  if (identity.actor !== 'session') throw errors.forbidden();
  const user = await em.findOneOrFail(User, identity.userId);
  const memberships = await em.find(
    Membership,
    { user },
    { populate: ['workspace'], orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  return { user: presentUser(user), workspaces: memberships.map(presentMembership) };
}

/**
 * Marks the address behind a verification token as verified; the token works once. An unknown or
 * used token is a `validation_error` on `token`.
 */
export async function verifyEmail(em: EntityManager, token: string): Promise<{ user: UserView }> {
  const user = await em.findOne(User, { emailVerifyTokenHash: sha256Hex(token) });
  if (!user) throw errors.validation([{ path: 'token', message: 'Invalid or already used verification token' }]);
  user.emailVerifiedAt = new Date();
  user.emailVerifyTokenHash = null;
  await em.flush();
  return { user: presentUser(user) };
}

/** Marks a user's address as verified without a token (operator CLI). Returns false for an unknown e-mail. */
export async function markEmailVerified(em: EntityManager, email: string): Promise<boolean> {
  const updated = await em.nativeUpdate(
    User,
    { email: email.toLowerCase() },
    { emailVerifiedAt: new Date(), emailVerifyTokenHash: null },
  );
  return updated > 0;
}
