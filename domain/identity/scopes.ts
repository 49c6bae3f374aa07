import type { Role } from '../../db/entities/Membership';

/** Every scope there is (docs/api/identity.md). There is no wildcard, not even a partial one such as `runs:*`. */
export const SCOPES = [
  'runs:read',
  'runs:write',
  'agents:read',
  'agents:write',
  'files:read',
  'files:write',
  'feedback:write',
  'webhooks:manage',
  'usage:read',
  'keys:manage',
  'apps:manage',
  'phone:read',
  'phone:manage',
  'finance:read',
  'finance:write',
  'data_sources:read',
  'data_sources:manage',
  'flows:read',
  'flows:manage',
  'whatsapp:read',
  'whatsapp:manage',
  'runner:run',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * The role table (docs/api/identity.md): the scopes a session role may use for the route's closest matching action.
 * member: every `*:read`, `runs:write`, `files:write`, `feedback:write`;
 * admin: member's plus every `*:write` / `*:manage` except `keys:manage`, plus `runner:run`;
 * owner: everything.
 */
const MEMBER_SCOPES = new Set<Scope>([
  ...SCOPES.filter((s) => s.endsWith(':read')),
  'runs:write',
  'files:write',
  'feedback:write',
]);
const ADMIN_SCOPES = new Set<Scope>([
  ...MEMBER_SCOPES,
  ...SCOPES.filter((s) => (s.endsWith(':write') || s.endsWith(':manage')) && s !== 'keys:manage'),
  'runner:run',
]);
const OWNER_SCOPES = new Set<Scope>(SCOPES);

export const ROLE_SCOPES: Record<Role, ReadonlySet<Scope>> = {
  member: MEMBER_SCOPES,
  admin: ADMIN_SCOPES,
  owner: OWNER_SCOPES,
};

export function roleAllows(role: Role, scope: Scope): boolean {
  return ROLE_SCOPES[role].has(scope);
}
