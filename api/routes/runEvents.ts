import { PassThrough } from 'node:stream';
import type { z } from 'zod';
import { TERMINAL_STATUSES } from '../../workflows/messages';
import type { RunEventHub } from '../../domain/runs/eventHub';
import { idParams } from '../schemas/common';
import { findRun } from '../../domain/runs/find';
import { credentialStillValid } from '../../domain/identity/credentials';
import { errors } from '../../domain/errors';
import type { Config } from '../../platform/config';
import { defineRoute, type RouteDef } from './route';

type IdParams = z.infer<typeof idParams>;
const KEEPALIVE_MS = 15_000;
/** How often an open stream re-checks its key or session; a revoked key or ended session ends it. */
const RECHECK_MS = 2_000;
/**
 * A reader that leaves the stream's buffer full (it is not reading) this long is dropped: events wait
 * for the buffer to drain, so at most a buffer's worth is ever held for one stream.
 */
const SLOW_READER_MS = 10_000;

/**
 * `GET /v1/runs/{id}/events` (docs/api/runs.md): server-sent events from the stored event log (`id: <seq>`,
 * `event: run.status | run.step`, `data: <json>`), resuming after `Last-Event-ID`, woken by PostgreSQL
 * NOTIFY rather than by polling Temporal, and ended after a terminal status. At most
 * `config.maxStreams` streams per workspace are open in this process at once, and a stream ends within
 * seconds of its key being revoked or its session ending, and a reader that stops reading is dropped
 * (docs/api/limits.md).
 */
export function runEventRoutes(deps: {
  hub: RunEventHub;
  config: Pick<Config, 'maxStreams'>;
  /** The process's gauge of open streams (docs/operations.md#metrics). */
  streamsOpen?: { inc(): void; dec(): void };
}): RouteDef[] {
  // Open streams per workspace in this process; a slot is taken before the stream opens and given back
  // exactly once when it ends, however it ends.
  const open = new Map<string, number>();
  const release = (workspaceId: string) => {
    deps.streamsOpen?.dec();
    const n = (open.get(workspaceId) ?? 1) - 1;
    if (n <= 0) open.delete(workspaceId);
    else open.set(workspaceId, n);
  };
  return [
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/runs/:id/events',
      summary: "A run's live events (text/event-stream)",
      tag: 'runs',
      access: { auth: 'any', scope: 'runs:read' },
      params: idParams,
      responses: {
        200: { description: 'run.status and run.step events', contentType: 'text/event-stream' },
      },
      async handler(ctx, { params }) {
        const em = ctx.state.em.fork();
        const workspaceId = ctx.state.identity!.workspaceId;
        const run = await findRun(em, workspaceId, params.id);
        if ((open.get(workspaceId) ?? 0) >= deps.config.maxStreams) throw errors.rateLimited(5);
        open.set(workspaceId, (open.get(workspaceId) ?? 0) + 1);
        deps.streamsOpen?.inc();
        const endedAtOpen = TERMINAL_STATUSES.includes(run.status);
        const header = ctx.get('Last-Event-ID');
        let last = /^\d+$/.test(header) ? Number(header) : 0;
        const stream = new PassThrough();
        let busy = false;
        let again = false;
        let ended = false;
        const conn = em.getConnection();

        const finish = () => {
          if (ended) return;
          ended = true;
          release(workspaceId);
          clearInterval(keepAlive);
          clearInterval(recheck);
          unsubscribe?.();
          stream.end();
        };
        // Resolves true once the buffer has drained, false if the reader left it full for SLOW_READER_MS.
        const drained = () =>
          new Promise<boolean>((resolve) => {
            const done = (ok: boolean) => {
              clearTimeout(timer);
              stream.off('drain', onDrain);
              stream.off('close', onClose);
              resolve(ok);
            };
            const onDrain = () => done(true);
            const onClose = () => done(false);
            const timer = setTimeout(() => done(false), SLOW_READER_MS);
            stream.once('drain', onDrain);
            stream.once('close', onClose);
          });
        // Writes one event; over the buffer's bound, waits for the reader, and drops it if it does not read.
        const send = async (chunk: string): Promise<boolean> => {
          if (stream.write(chunk)) return true;
          if (await drained()) return !ended;
          finish();
          ctx.req.socket.destroy();
          return false;
        };
        // Reads everything after `last` and writes it; a wake-up during a read triggers one more read.
        const drain = async (): Promise<void> => {
          if (busy) {
            again = true;
            return;
          }
          busy = true;
          try {
            do {
              again = false;
              const rows: Array<{ seq: string; type: string; data: { status?: string } }> = await conn.execute(
                'select seq, type, data from run_events where run_id = ? and seq > ? order by seq limit 500',
                [run.id, last],
              );
              for (const row of rows) {
                last = Number(row.seq);
                if (!(await send(`id: ${row.seq}\nevent: ${row.type}\ndata: ${JSON.stringify(row.data)}\n\n`))) return;
                if (row.type === 'run.status' && TERMINAL_STATUSES.includes(row.data.status as never)) return finish();
              }
              if (rows.length === 500) again = true;
              // A run that had ended when the stream opened has its terminal event stored already (same
              // transaction as the status): a resume from at or after it has nothing more to wait for.
              else if (endedAtOpen) return finish();
            } while (again && !ended);
          } catch {
            finish();
          } finally {
            busy = false;
          }
        };

        const identity = ctx.state.identity!;
        const recheck = setInterval(() => {
          credentialStillValid(em.fork(), identity).then(
            (valid) => valid || finish(),
            () => undefined, // a database hiccup is not a revocation; the next check decides
          );
        }, RECHECK_MS);
        // a full buffer already tells the proxy the connection is alive; keep-alives never add to it
        const keepAlive = setInterval(() => stream.writableNeedDrain || stream.write(': keep-alive\n\n'), KEEPALIVE_MS);
        let unsubscribe: (() => void) | undefined;
        ctx.req.on('close', finish);
        stream.on('error', finish);
        stream.on('close', finish);
        try {
          unsubscribe = await deps.hub.subscribe(run.id, () => void drain());
        } catch (err) {
          finish();
          throw err;
        }
        ctx.status = 200;
        ctx.set({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
        ctx.body = stream;
        stream.write('retry: 1000\n\n');
        void drain();
      },
    }),
  ];
}
