import type { ApiKey } from '../../db/entities/ApiKey';
import type { Membership, Role } from '../../db/entities/Membership';
import type { User } from '../../db/entities/User';
import type { Plan } from '../../db/entities/Workspace';
import { microsToUsd } from '../shared/money';
import type { Scope } from './scopes';

/** A user as the console sees it (docs/api/identity.md). */
export interface UserView {
  id: string;
  email: string;
  name: string | null;
  emailVerified: boolean;
}

/** A workspace the user belongs to, with their role in it. */
export interface MembershipView {
  id: string;
  name: string;
  plan: Plan;
  role: Role;
}

/** An API key as listed: never its plaintext, only its first 12 characters. */
export interface ApiKeyView {
  id: string;
  name: string;
  scopes: Scope[];
  prefix: string;
  monthlySpendCapUsd: number | null;
  spentThisMonthUsd: number;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A key just created: the listed shape without usage, plus the plaintext (shown only this once). */
export type CreatedApiKeyView = Omit<ApiKeyView, 'spentThisMonthUsd' | 'lastUsedAt'> & { key: string };

export function presentUser(user: User): UserView {
  return { id: user.id, email: user.email, name: user.name, emailVerified: user.emailVerifiedAt !== null };
}

export function presentMembership(m: Membership): MembershipView {
  return { id: m.workspace.id, name: m.workspace.name, plan: m.workspace.plan, role: m.role };
}

export function presentApiKey(key: ApiKey, spentMicros: number): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    scopes: key.scopes as Scope[],
    prefix: key.prefix,
    monthlySpendCapUsd: key.monthlySpendCapMicros === null ? null : microsToUsd(key.monthlySpendCapMicros),
    spentThisMonthUsd: microsToUsd(spentMicros),
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  };
}
