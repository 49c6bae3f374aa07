import type { ModelRegistry } from '../models/registry';
import type { ModelInfo } from '../models/types';
import { VOICES, type Voice } from '../agents/voices';

export function listVoices(): { voices: Voice[] } {
  return { voices: VOICES };
}

/**
 * The models a phone agent may use: every chat model of the registry, since the provider hands over the
 * caller's speech already transcribed and speaks the reply itself (docs/api/phone.md).
 */
export function listPhoneModels(models: Pick<ModelRegistry, 'list'>): { models: ModelInfo[] } {
  return { models: models.list() };
}
