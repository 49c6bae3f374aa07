import type { Scope } from './scopes';

/** What never changes about an API key once it is issued: which key it is, its workspace and scopes. */
export interface KnownKey {
  keyId: string;
  workspaceId: string;
  scopes: Scope[];
  /** When this process last wrote the key's `lastUsedAt` (ms); it writes at most once a minute. */
  lastUsedWrittenAt: number;
}

/**
 * An API process's memory of the keys it has seen, by the SHA-256 of their plaintext, so a request
 * with a known key skips the lookup of the key's row. Only what cannot change is kept here: whether the
 * key still holds (not revoked, its workspace not gone) and the workspace's plan are read again on every
 * request, in the statement that counts it against its rate limit (docs/api/limits.md), so a revoked
 * key is refused on every replica at once and no invalidation is needed. Bounded: the oldest entry
 * leaves when the cache is full.
 */
export class ApiKeyCache {
  private readonly keys = new Map<string, KnownKey>();

  constructor(private readonly maxEntries = 10_000) {}

  get(keyHash: string): KnownKey | undefined {
    return this.keys.get(keyHash);
  }

  remember(keyHash: string, key: KnownKey): void {
    if (this.keys.size >= this.maxEntries && !this.keys.has(keyHash)) {
      const oldest = this.keys.keys().next();
      if (!oldest.done) this.keys.delete(oldest.value);
    }
    this.keys.set(keyHash, key);
  }
}
