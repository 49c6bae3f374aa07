import type { AuditEntry } from '../../db/entities/AuditEntry';
import type { ChainedFields } from './chain';
import type { AuditActor } from './context';

/** An entry as the API shows it (docs/api/audit.md). */
export interface AuditEntryView extends ChainedFields {
  prevHash: string;
  hash: string;
}

function actorOf(entry: AuditEntry): AuditActor {
  if (entry.actorType === 'user') return { type: 'user', userId: entry.actorUserId! };
  if (entry.actorType === 'api_key') return { type: 'api_key', keyId: entry.actorKeyId! };
  return { type: 'system' };
}

/** The fields of a stored entry that its hash covers (domain/audit/chain.ts). */
export function chainedFields(entry: AuditEntry): ChainedFields {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    action: entry.action,
    resourceType: entry.resourceType,
    resourceId: entry.resourceId,
    actor: actorOf(entry),
    ip: entry.ip,
    userAgent: entry.userAgent,
    requestId: entry.requestId,
    details: entry.details,
  };
}

export function presentAuditEntry(entry: AuditEntry): AuditEntryView {
  return { ...chainedFields(entry), prevHash: entry.prevHash, hash: entry.hash };
}
