import type { EntityManager } from '@mikro-orm/postgresql';
import { Session } from '../../db/entities/Session';
import type { User } from '../../db/entities/User';
import { newOpaqueToken, sha256Hex } from './secrets';

/**
 * Opens a session for the user and returns its token, which only the cookie carries; the database
 * keeps its SHA-256. The session ends `ttlMs` from now or at sign-out.
 */
export async function openSession(em: EntityManager, user: User, ttlMs: number): Promise<string> {
  const token = newOpaqueToken();
  await em.persist(new Session(user, sha256Hex(token), new Date(Date.now() + ttlMs))).flush();
  return token;
}

/** Deletes a session server-side, so its cookie stops working at once, even if a copy survives. */
export async function closeSession(em: EntityManager, sessionId: string): Promise<void> {
  await em.nativeDelete(Session, { id: sessionId });
}
