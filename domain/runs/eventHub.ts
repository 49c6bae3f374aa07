import { RUN_EVENTS_CHANNEL } from './events';
import type { PgListener } from '../../platform/database/listener';

type Listener = () => void;

/**
 * Wakes the event streams of the runs PostgreSQL names on `RUN_EVENTS_CHANNEL`, through the process's one
 * LISTEN connection (platform/database/listener.ts). Only live subscriptions live here; the events themselves
 * are read from PostgreSQL, so any replica can serve any stream and nothing is lost across restarts
 * (`Last-Event-ID` resumes from the table).
 */
export class RunEventHub {
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(private readonly listener: PgListener) {
    listener.on(RUN_EVENTS_CHANNEL, (runId) => {
      for (const l of this.listeners.get(runId) ?? []) l();
    });
    // A notification missed while the connection was down costs a re-read only: wake every stream on a
    // loss and again once listening.
    listener.onStateChange(() => {
      for (const set of this.listeners.values()) for (const l of set) l();
    });
  }

  /** Subscribes to wake-ups for one run once listening; returns the unsubscribe function. */
  async subscribe(runId: string, listener: Listener): Promise<() => void> {
    await this.listener.ready();
    let set = this.listeners.get(runId);
    if (!set) this.listeners.set(runId, (set = new Set()));
    set.add(listener);
    return () => {
      set!.delete(listener);
      if (set!.size === 0) this.listeners.delete(runId);
    };
  }

  close(): void {
    this.listeners.clear();
  }
}
