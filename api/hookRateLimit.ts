import type { AppContext } from './context';
import { enforceRateLimit } from './middleware/rateLimit';
import type { RateLimitStore } from './rateLimitStore';

/**
 * Requests per minute to one phone number's or WhatsApp account's hook (docs/api/limits.md): the
 * provider's callbacks of a busy number stay well below it, while a leaked or guessed hook URL cannot
 * make the service verify signatures and start turns without bound.
 */
export const HOOK_RATE_PER_MIN = 300;

/** Counts one hook request against its target; 429 `rate_limited` with `Retry-After` past the limit. */
export function enforceHookRateLimit(ctx: AppContext, rateLimits: RateLimitStore, target: string): Promise<void> {
  return enforceRateLimit(ctx, rateLimits, `hook:${target}`, HOOK_RATE_PER_MIN);
}
