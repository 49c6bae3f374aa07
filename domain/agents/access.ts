import { identityAllows, requireScope } from '../identity/credentials';
import { isPhonePreset } from './presets';
import type { Identity } from '../identity/identity';

/** Whether the caller may run agents (`runner:run`): only then does the definition carry the instructions. */
export function mayRun(identity: Identity): boolean {
  return identityAllows(identity, 'runner:run');
}

/**
 * An agent's instructions are kept from a caller that can only read agents (docs/api/agents.md). They
 * are shown to callers who may run agents (`runner:run`) and to those who may change them
 * (`agents:write`), since they must see what they edit.
 */
export function mayReadInstructions(identity: Identity): boolean {
  return mayRun(identity) || identityAllows(identity, 'agents:write');
}

/**
 * An agent built on a phone preset is a phone agent: creating, changing or deleting one also needs
 * `phone:manage` (docs/api/phone.md). Throws `forbidden` without it.
 */
export function requirePhoneAccess(identity: Identity, presetId: string): void {
  if (isPhonePreset(presetId)) requireScope(identity, 'phone:manage');
}
