import { Client } from 'pg';
import { RUN_EVENTS_CHANNEL } from './events';
import type { Logger } from '../../platform/logger';

type Listener = () => void;

/**
 * One LISTEN connection per API process that wakes the event streams of the runs it names. Only
 * live subscriptions live here; the events themselves are read from PostgreSQL, so any replica can
 * serve any stream and nothing is lost across restarts (`Last-Event-ID` resumes from the table).
 */
export class RunEventHub {
  private client?: Client;
  private connecting?: Promise<void>;
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {}

  /** Subscribes to wake-ups for one run; returns the unsubscribe function. */
  async subscribe(runId: string, listener: Listener): Promise<() => void> {
    await this.connect();
    let set = this.listeners.get(runId);
    if (!set) this.listeners.set(runId, (set = new Set()));
    set.add(listener);
    return () => {
      set!.delete(listener);
      if (set!.size === 0) this.listeners.delete(runId);
    };
  }

  private connect(): Promise<void> {
    this.connecting ??= (async () => {
      const client = new Client({ connectionString: this.databaseUrl });
      client.on('notification', (msg) => {
        if (msg.channel !== RUN_EVENTS_CHANNEL || !msg.payload) return;
        for (const listener of this.listeners.get(msg.payload) ?? []) listener();
      });
      client.on('error', (err) => {
        this.logger.warn({ err: err.message }, 'run event listener lost its connection');
        this.reset();
      });
      client.on('end', () => this.reset());
      await client.connect();
      await client.query(`LISTEN ${RUN_EVENTS_CHANNEL}`);
      this.client = client;
    })().catch((err) => {
      this.connecting = undefined;
      throw err;
    });
    return this.connecting;
  }

  // Streams wake every listener on reconnect, so a notification missed while down costs a re-read only.
  private reset(): void {
    this.client = undefined;
    this.connecting = undefined;
    for (const set of this.listeners.values()) for (const l of set) l();
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.listeners.clear();
    await client?.end().catch(() => undefined);
  }
}
