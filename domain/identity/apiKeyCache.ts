import type { PgListener } from '../../platform/database/listener';
import type { Plan } from '../../db/entities/Workspace';
import type { Scope } from './scopes';

/**
 * The channel on which PostgreSQL announces that what a replica may remember of a key has changed:
 * `key:<id>` when the key is revoked or deleted, `workspace:<id>` when its workspace's plan changes or the
 * workspace is deleted. Triggers send it, in the changing transaction (db/migrations/Migration20261124140000.ts).
 */
export const API_KEY_CHANNEL = 'svc_api_keys';

/** An API key that holds, as a replica remembers it. */
export interface KnownKey {
  keyId: string;
  workspaceId: string;
  scopes: Scope[];
  /** The workspace's plan, whose limit applies to the key (docs/api/limits.md). */
  plan: Plan;
  /** When this process last wrote the key's `lastUsedAt` (ms); it writes at most once a minute. */
  lastUsedWrittenAt: number;
}

/** Taken before reading a key's row; `remember` keeps the row only if nothing was dropped since. */
export type CacheTicket = number;

/**
 * An API process's memory of the keys that hold, by the SHA-256 of their plaintext, so a request with a
 * known key needs no round trip to check it. What can change (whether the key still holds, its workspace's
 * plan) is kept only while the process listens for changes (`API_KEY_CHANNEL`): every replica drops the
 * entry when one is announced. While the LISTEN connection is down, or cannot prove it is up to date, the
 * cache answers nothing and every request reads the key's row, and everything it knew is dropped on the
 * loss. Bounded: the oldest entry leaves when the cache is full.
 */
export class ApiKeyCache {
  private readonly keys = new Map<string, KnownKey>();
  // Bumped by every drop; a row read before a drop may predate the change announced, and is not kept.
  private epoch = 0;

  constructor(
    private readonly listener: PgListener | undefined,
    private readonly maxEntries = 10_000,
  ) {
    listener?.on(API_KEY_CHANNEL, (payload) => this.onNotice(payload));
    listener?.onStateChange(() => this.clear());
  }

  /** The key, if it is known to hold; undefined means "read its row". */
  get(keyHash: string): KnownKey | undefined {
    if (!this.listener?.fresh()) return undefined;
    return this.keys.get(keyHash);
  }

  ticket(): CacheTicket {
    return this.epoch;
  }

  /** Keeps a key read from its row since `ticket`, unless something was dropped meanwhile. */
  remember(keyHash: string, key: KnownKey, ticket: CacheTicket): void {
    if (ticket !== this.epoch || !this.listener?.fresh()) return;
    if (this.keys.size >= this.maxEntries && !this.keys.has(keyHash)) {
      const oldest = this.keys.keys().next();
      if (!oldest.done) this.keys.delete(oldest.value);
    }
    this.keys.set(keyHash, key);
  }

  /** Drops one key at once, in the process that revoked it (the others hear of it through PostgreSQL). */
  forgetKey(keyId: string): void {
    this.drop((k) => k.keyId === keyId);
  }

  private onNotice(payload: string): void {
    const [kind, id] = payload.split(':', 2);
    if (kind === 'key') this.drop((k) => k.keyId === id);
    else if (kind === 'workspace') this.drop((k) => k.workspaceId === id);
    else this.clear();
  }

  private drop(match: (key: KnownKey) => boolean): void {
    this.epoch++;
    for (const [hash, key] of this.keys) if (match(key)) this.keys.delete(hash);
  }

  private clear(): void {
    this.epoch++;
    this.keys.clear();
  }
}
