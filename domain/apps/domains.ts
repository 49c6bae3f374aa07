import { randomBytes } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppDomain } from '../../db/entities/App';
import { Workspace } from '../../db/entities/Workspace';
import type { TxtResolver } from '../../platform/net/dnsServers';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { findApp } from './find';
import { presentDomain, verificationName, type AppDomainView } from './presenters';

/** Custom domains one app may have. */
export const MAX_DOMAINS_PER_APP = 10;

export interface DomainCheck extends AppDomainView {
  check: { ok: boolean; message: string };
}

async function findDomain(em: EntityManager, identity: Identity, appId: string, hostname: string): Promise<AppDomain> {
  const app = await findApp(em, identity.workspaceId, appId);
  const domain = await em.findOne(AppDomain, { app: app.id, hostname: hostname.toLowerCase() });
  if (!domain) throw errors.notFound('Domain');
  return domain;
}

/**
 * Adds a hostname to an app, `pending` until its TXT record is verified. A pending claim holds nothing:
 * another app (of any workspace) may claim the same hostname with its own value, and whichever proves
 * the DNS record gets it (verifyDomain). One app claims a hostname once, and has at most
 * MAX_DOMAINS_PER_APP: both 409 `conflict`. Throws `not_found` for the app.
 */
export async function addDomain(
  em: EntityManager,
  identity: Identity,
  appId: string,
  hostname: string,
): Promise<AppDomainView> {
  const app = await findApp(em, identity.workspaceId, appId);
  const name = hostname.toLowerCase();
  if ((await em.count(AppDomain, { app: app.id })) >= MAX_DOMAINS_PER_APP) {
    throw errors.conflict(`An app has at most ${MAX_DOMAINS_PER_APP} domains`);
  }
  const value = `svc-verify=${randomBytes(24).toString('base64url')}`;
  const domain = new AppDomain(app, em.getReference(Workspace, identity.workspaceId), name, value);
  try {
    await em.persist(domain).flush();
  } catch (err) {
    // the app has it already (app_domains_app_id_hostname_unique), added before or concurrently
    if (err instanceof UniqueConstraintViolationException) {
      throw errors.conflict(`The app has the hostname ${name} already`);
    }
    throw err;
  }
  return presentDomain(domain);
}

/**
 * Looks up `_svc-verify.<hostname>` TXT through the configured resolver (`SVC_DNS_SERVERS`) and marks the
 * domain `verified` when one record equals its value (a record's character-strings joined). A missing record
 * or a failed lookup leaves it as it was and says why in `check`. The record proves control of the
 * hostname now, so a claim verified earlier by another app goes back to `pending` (that app stops serving
 * there). Throws `not_found`.
 */
export async function verifyDomain(
  em: EntityManager,
  resolveTxt: TxtResolver,
  identity: Identity,
  appId: string,
  hostname: string,
): Promise<DomainCheck> {
  const domain = await findDomain(em, identity, appId, hostname);
  const name = verificationName(domain.hostname);
  let records: string[][];
  try {
    records = await resolveTxt(name);
  } catch {
    return { ...presentDomain(domain), check: { ok: false, message: `The DNS lookup of ${name} failed; try again` } };
  }
  if (!records.some((chunks) => chunks.join('') === domain.verificationValue)) {
    const message = records.length
      ? `No TXT record at ${name} holds the expected value`
      : `No TXT record found at ${name}`;
    return { ...presentDomain(domain), check: { ok: domain.status === 'verified', message } };
  }
  if (domain.status !== 'verified') {
    const now = new Date();
    await em.transactional(async (tx) => {
      // Every claim of the hostname, locked in one order: verifications of one hostname take turns, so
      // the one verified claim the unique index allows moves from one app to the next without a conflict.
      await tx.execute(`select id from app_domains where hostname = ? order by id for update`, [domain.hostname]);
      await tx.nativeUpdate(
        AppDomain,
        { hostname: domain.hostname, status: 'verified', id: { $ne: domain.id } },
        { status: 'pending', verifiedAt: null, updatedAt: now },
      );
      await tx.nativeUpdate(AppDomain, { id: domain.id }, { status: 'verified', verifiedAt: now, updatedAt: now });
    });
    domain.status = 'verified';
    domain.verifiedAt = now;
    domain.updatedAt = now;
  }
  return { ...presentDomain(domain), check: { ok: true, message: 'Verified' } };
}

/** Removes a hostname from an app; it stops serving the app at once. Throws `not_found`. */
export async function removeDomain(
  em: EntityManager,
  identity: Identity,
  appId: string,
  hostname: string,
): Promise<void> {
  const domain = await findDomain(em, identity, appId, hostname);
  await em.nativeDelete(AppDomain, { id: domain.id });
}
