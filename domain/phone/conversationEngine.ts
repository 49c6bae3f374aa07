import type { EntityManager } from '@mikro-orm/postgresql';
import type { CallEngine } from './engine';

/** The conversation engine behind calls (domain/conversations). */
export function conversationEngine(): (em: EntityManager) => CallEngine {
  const missing = () => Promise.reject(new Error('the conversation engine is not available'));
  return () => ({ open: missing, turn: missing, end: missing });
}
