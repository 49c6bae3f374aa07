import { SCOPES, type Role } from './types';

/** Every scope a key may hold (docs/api/identity.md): the ones the console offers. */
export const KEY_SCOPES = SCOPES;

/** The role table of docs/api/identity.md: what a session of each role may use, and so may grant. */
export function roleAllows(role: Role, scope: string): boolean {
  if (role === 'owner') return true;
  const member = scope.endsWith(':read') || ['runs:write', 'files:write', 'feedback:write'].includes(scope);
  if (role === 'member') return member;
  return (
    member ||
    scope === 'runner:run' ||
    ((scope.endsWith(':write') || scope.endsWith(':manage')) && scope !== 'keys:manage')
  );
}
