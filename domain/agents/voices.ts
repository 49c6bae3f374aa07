/** A voice the provider speaks replies with (`<Say voice=…>`). */
export interface Voice {
  id: string;
  name: string;
  language: string;
  gender: 'female' | 'male';
}

/** The voices a phone agent may name in `settings.voice` (docs/api/phone.md): Twilio's Polly voices. */
export const VOICES: Voice[] = [
  { id: 'Polly.Joanna', name: 'Joanna', language: 'en-US', gender: 'female' },
  { id: 'Polly.Matthew', name: 'Matthew', language: 'en-US', gender: 'male' },
  { id: 'Polly.Amy', name: 'Amy', language: 'en-GB', gender: 'female' },
  { id: 'Polly.Brian', name: 'Brian', language: 'en-GB', gender: 'male' },
  { id: 'Polly.Lea', name: 'Léa', language: 'fr-FR', gender: 'female' },
  { id: 'Polly.Hans', name: 'Hans', language: 'de-DE', gender: 'male' },
  { id: 'Polly.Lucia', name: 'Lucia', language: 'es-ES', gender: 'female' },
];

export const DEFAULT_VOICE = 'Polly.Joanna';

export function isVoice(id: string): boolean {
  return VOICES.some((v) => v.id === id);
}
