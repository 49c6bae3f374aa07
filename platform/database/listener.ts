import { Client } from 'pg';
import type { Logger } from '../logger';

type Handler = (payload: string) => void;

/** application_name of the LISTEN connection, so operators (and tests) can find it in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'svc-listener';

/**
 * One long-lived LISTEN connection per process for every channel a part of it subscribes to (never one
 * per request). It reconnects by itself after a loss, with a growing pause, and tells subscribers of
 * every loss and every return: a notification sent while it was down is gone, so whoever keeps state
 * on the strength of notifications must drop it on a loss.
 *
 * `fresh()` says whether it can vouch that every notification committed more than `maxLagMs` ago has been
 * delivered: it is connected and a heartbeat round trip that started within that time succeeded (PostgreSQL
 * sends pending notifications before it answers a query, so an answered heartbeat carries everything
 * committed before it began). A connection that dies silently stops being fresh within `maxLagMs`.
 */
export class PgListener {
  private client?: Client;
  private running = false;
  private closed = false;
  private retryMs = 0;
  private lastProofAt = 0;
  private heartbeat?: NodeJS.Timeout;
  private readonly dead = new WeakSet<Client>();
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly stateHandlers = new Set<(listening: boolean) => void>();

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
    private readonly options: { heartbeatMs?: number; maxLagMs?: number } = {},
  ) {}

  private get heartbeatMs(): number {
    return this.options.heartbeatMs ?? 500;
  }

  private get maxLagMs(): number {
    return this.options.maxLagMs ?? 1500;
  }

  /** Calls `handler` with each notification's payload on `channel`; starts listening if not yet. */
  on(channel: string, handler: Handler): () => void {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
    let set = this.handlers.get(channel);
    if (!set) {
      this.handlers.set(channel, (set = new Set()));
      if (this.client) void this.client.query(`LISTEN ${channel}`).catch(() => undefined);
    }
    set.add(handler);
    this.start();
    return () => set!.delete(handler);
  }

  /** Calls `handler(false)` on every loss of the connection and `handler(true)` each time it listens again. */
  onStateChange(handler: (listening: boolean) => void): void {
    this.stateHandlers.add(handler);
  }

  /** The PostgreSQL backend of the LISTEN connection (pg_stat_activity.pid), while there is one. */
  get backendPid(): number | undefined {
    return (this.client as unknown as { processID?: number } | undefined)?.processID;
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Listening, and proven within `maxLagMs` to have received everything committed before then. */
  fresh(): boolean {
    return this.client !== undefined && Date.now() - this.lastProofAt < this.maxLagMs;
  }

  /** Resolves once listening (for tests and callers that would rather wait than fall back). */
  async ready(timeoutMs = 5000): Promise<void> {
    this.start();
    const until = Date.now() + timeoutMs;
    while (!this.fresh()) {
      if (Date.now() > until) throw new Error('LISTEN connection not ready');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  private start(): void {
    if (this.running || this.closed) return;
    this.running = true;
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new Client({ connectionString: this.databaseUrl, application_name: LISTENER_APPLICATION_NAME });
    const onLost = (err?: Error) => this.lose(client, err);
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (msg) => {
      if (!msg.payload) return;
      for (const handler of this.handlers.get(msg.channel) ?? []) handler(msg.payload);
    });
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
    } catch (err) {
      onLost(err as Error);
      return;
    }
    if (this.dead.has(client) || this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = 0;
    this.lastProofAt = Date.now();
    this.heartbeat = setInterval(() => this.beat(client), this.heartbeatMs);
    this.heartbeat.unref();
    for (const handler of this.stateHandlers) handler(true);
  }

  private beat(client: Client): void {
    // a connection that answers nothing for this long is as good as gone: replace it
    if (Date.now() - this.lastProofAt > 4 * this.maxLagMs) return this.lose(client, new Error('heartbeat timed out'));
    const startedAt = Date.now();
    client.query('select 1').then(
      () => {
        if (this.client === client) this.lastProofAt = Math.max(this.lastProofAt, startedAt);
      },
      (err: Error) => this.lose(client, err),
    );
  }

  private lose(client: Client, err?: Error): void {
    if (this.dead.has(client)) return;
    this.dead.add(client);
    const wasListening = this.client === client;
    if (wasListening) {
      this.client = undefined;
      clearInterval(this.heartbeat);
      this.logger.warn({ err: err?.message }, 'LISTEN connection lost; reconnecting');
      for (const handler of this.stateHandlers) handler(false);
    }
    void client.end().catch(() => undefined);
    if (this.closed) return;
    this.retryMs = Math.min(5000, this.retryMs ? this.retryMs * 2 : 100);
    setTimeout(() => void this.connect(), this.retryMs).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    const client = this.client;
    this.client = undefined;
    this.handlers.clear();
    await client?.end().catch(() => undefined);
  }
}
