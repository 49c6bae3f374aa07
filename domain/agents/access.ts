import { identityAllows } from '../identity/credentials';
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
